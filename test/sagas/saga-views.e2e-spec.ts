import {
  CloudEvent,
  INVENTORY_STOCK_RELEASED_V1,
  INVENTORY_STOCK_RESERVED_V1,
  PAYMENTS_CARD_CHARGED_V1,
  PAYMENTS_CHARGE_REFUND_FAILED_V1,
  SHIPPING_SHIPMENT_CREATION_FAILED_V1,
} from '@app/contracts';
import { connect } from '@app/db';
import { createLogger } from '@app/logger';
import {
  DEFAULT_COMPENSATION_POLICY,
  expireSagaDeadlines,
  SagaCoordinator,
  sagaTransaction,
  SagaTransaction,
} from '@app/saga';
import { waitFor } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { hookrailInProcess } from '../cli/hookrail-in-process';
import { ORDER_FULFILMENT, orderFulfilmentSaga } from '../../apps/consumers/src/fulfilment/order-fulfilment.saga';
import { Ingress, orderData, post, secrets, startIngress } from '../ingress/ingress-harness';
import { standardHeaders } from '../ingress/signing';
import { openStream } from '../ingress/sse-client';

/** A response's JSON body, for assertions. */
async function json(response: Response | Promise<Response>): Promise<any> {
  return (await response).json();
}

describe('sagas for operators: GET /events/:id, the SSE stream, /admin/sagas and `hookrail sagas`', () => {
  let ingress: Ingress;
  let dataSource: DataSource;
  const adminToken = randomUUID();
  const coordinator = new SagaCoordinator(
    [
      orderFulfilmentSaga({
        timeoutsMs: { reserveStock: 60_000, chargeCard: 60_000, createShipment: 60_000 },
        stepRetries: 0,
        compensationPolicy: { ...DEFAULT_COMPENSATION_POLICY, maxAttempts: 1 },
        topic: (name) => name,
      }),
    ],
    createLogger('saga-views', 'silent'),
  );

  beforeAll(async () => {
    ingress = await startIngress({ ADMIN_TOKEN: adminToken });
    dataSource = await connect({ url: ingress.database.url, applicationName: 'saga-views-test', poolSize: 2 });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await ingress?.close();
  });

  const admin = (path: string, init: RequestInit = {}) =>
    fetch(`${ingress.adminUrl}/admin/sagas${path}`, {
      ...init,
      headers: { authorization: `Bearer ${adminToken}`, 'x-hookrail-operator': 'ada', ...init.headers },
    });

  /** An order placed through the real ingress; returns its event id. */
  async function placeOrder(orderId: string): Promise<string> {
    const payload = JSON.stringify({
      type: 'shop.order.placed.v1',
      timestamp: new Date().toISOString(),
      data: orderData(orderId),
    });
    const { body } = await post(
      `${ingress.url}/webhooks/shop`,
      payload,
      standardHeaders(secrets.standard[0], randomUUID(), payload),
    );
    return body.id as string;
  }

  /** Moves sagas as the coordinator does, in one transaction, history included. */
  async function move(work: (tx: SagaTransaction) => Promise<unknown>) {
    await dataSource.transaction(async (manager) => {
      const tx = sagaTransaction(manager);
      await work(tx);
      await tx.flush();
    });
  }

  const reply = (sagaId: string, type: string, data: Record<string, unknown> = {}): CloudEvent<any> => ({
    specversion: '1.0',
    id: randomUUID(),
    source: '/participants/test',
    type,
    time: new Date().toISOString(),
    datacontenttype: 'application/json',
    data: { sagaId, commandId: randomUUID(), ...data },
  });

  async function startSaga(orderId: string): Promise<{ eventId: string; sagaId: string }> {
    const eventId = await placeOrder(orderId);
    let sagaId = '';
    await move(async (tx) => {
      const started = await coordinator.start(tx, ORDER_FULFILMENT, {
        correlationId: orderId,
        startEventId: eventId,
        data: orderData(orderId),
      });
      sagaId = started!.sagaId;
    });
    return { eventId, sagaId };
  }

  it('shows the saga of an order event, and streams each transition as it happens', async () => {
    const { eventId, sagaId } = await startSaga('ord-view-1');
    const stream = openStream(`${ingress.url}/events/${eventId}/stream`, await ingress.viewer());
    await waitFor(() => stream.frames.some((frame) => frame.event === 'status'), { what: 'the first status frame' });
    await move((tx) => coordinator.reply(tx, reply(sagaId, INVENTORY_STOCK_RESERVED_V1, { orderId: 'ord-view-1' })));
    await waitFor(() => stream.frames.filter((frame) => frame.event === 'saga').length === 2, {
      what: 'two saga frames',
    });
    await move((tx) =>
      coordinator.reply(tx, reply(sagaId, PAYMENTS_CARD_CHARGED_V1, { orderId: 'ord-view-1', chargeId: 'ch_1' })),
    );
    await waitFor(() => stream.frames.filter((frame) => frame.event === 'saga').length === 3, {
      what: 'three saga frames',
    });
    stream.close();
    await stream.done;

    expect(stream.frames.filter((frame) => frame.event === 'saga').map((frame) => frame.data)).toEqual([
      expect.objectContaining({ sagaId, type: ORDER_FULFILMENT, seq: 1, event: 'started', step: 'reserve-stock' }),
      expect.objectContaining({
        seq: 2,
        event: 'succeeded',
        step: 'reserve-stock',
        reply: INVENTORY_STOCK_RESERVED_V1,
      }),
      expect.objectContaining({ seq: 3, event: 'succeeded', step: 'charge-card', sent: 'shipping.create-shipment.v1' }),
    ]);
    const ids = stream.frames.map((frame) => Number(frame.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    const status = await json(fetch(`${ingress.url}/events/${eventId}`, { headers: await ingress.viewer() }));
    expect(status.saga).toMatchObject({
      id: sagaId,
      type: ORDER_FULFILMENT,
      state: 'running',
      step: 'create-shipment',
      history: [
        expect.objectContaining({ event: 'started', sent: 'inventory.reserve-stock.v1', state: 'running' }),
        expect.objectContaining({ event: 'succeeded', sent: 'payments.charge-card.v1' }),
        expect.objectContaining({ event: 'succeeded', sent: 'shipping.create-shipment.v1' }),
      ],
    });
  });

  it('lists failed sagas first, shows one with its history, and retries it once (API and CLI)', async () => {
    const { sagaId } = await startSaga('ord-view-2');
    await move(async (tx) => {
      await coordinator.reply(tx, reply(sagaId, INVENTORY_STOCK_RESERVED_V1, { orderId: 'ord-view-2' }));
      await coordinator.reply(tx, reply(sagaId, PAYMENTS_CARD_CHARGED_V1, { orderId: 'ord-view-2', chargeId: 'ch_2' }));
      await coordinator.reply(
        tx,
        reply(sagaId, SHIPPING_SHIPMENT_CREATION_FAILED_V1, { orderId: 'ord-view-2', reason: 'undeliverable' }),
      );
      await coordinator.reply(
        tx,
        reply(sagaId, PAYMENTS_CHARGE_REFUND_FAILED_V1, { orderId: 'ord-view-2', reason: 'refund refused' }),
      );
    });

    const list = await json(admin(''));
    expect(list.items[0]).toMatchObject({
      id: sagaId,
      state: 'failed',
      step: 'charge-card',
      lastError: 'refund refused (refused once; an operator must look)',
    });
    expect(list.byState).toEqual(
      expect.arrayContaining([
        { state: 'failed', count: 1 },
        { state: 'running', count: 1 },
      ]),
    );
    expect((await json(admin('?state=failed'))).items.map((saga: { id: string }) => saga.id)).toEqual([sagaId]);
    expect((await json(admin('?state=running&type=order-fulfilment'))).total).toBe(1);
    const bad = await admin('?state=stuck');
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({
      error: 'malformed_request',
      message: expect.stringContaining('state must be one of'),
    });

    const detail = await json(admin(`/${sagaId}`));
    expect(detail).toMatchObject({
      id: sagaId,
      state: 'failed',
      failure: 'undeliverable',
      results: { 'charge-card': { chargeId: 'ch_2' } },
    });
    expect(detail.history.map((entry: { event: string; state: string }) => `${entry.event} → ${entry.state}`)).toEqual([
      'started → running',
      'succeeded → running',
      'succeeded → running',
      'failed → compensating',
      'failed → failed',
    ]);
    expect((await admin('/not-a-uuid')).status).toBe(400);
    expect((await admin(`/${randomUUID()}`)).status).toBe(404);
    expect((await fetch(`${ingress.adminUrl}/admin/sagas`)).status).toBe(401);

    // The CLI shows the same, failed first.
    const cli = (...args: string[]) => hookrailInProcess(ingress.database.url, args, { HOOKRAIL_OPERATOR: 'ops' });
    const listed = await cli('sagas', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('failed 1');
    expect(listed.stdout.split('\n')[4]).toContain(sagaId);
    const shown = await cli('sagas', 'show', sagaId);
    expect(shown).toMatchObject({ code: 0, stdout: expect.stringContaining('refund refused') });
    expect(shown.stdout).toMatch(/charge-card\s+compensation\s+failed\s+failed\s+payments.charge-refund-failed.v1/);
    expect(await cli('sagas', 'list', '--state', 'stuck')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--state'),
    });

    // A retry is scheduled once (the coordinator's deadline job would send the refund again).
    const retried = await admin(`/${sagaId}/retry`, { method: 'POST' });
    expect(retried.status).toBe(202);
    expect(await json(retried)).toEqual({ id: sagaId, retry: 'scheduled', step: 'charge-card' });
    const again = await admin(`/${sagaId}/retry`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(await json(again)).toMatchObject({
      error: 'saga_not_failed',
      message: expect.stringContaining('already pending'),
    });
    expect(await cli('sagas', 'retry', sagaId)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('already pending'),
    });
    const [requested] = (await json(admin(`/${sagaId}`))).history.slice(-1);
    expect(requested).toMatchObject({ event: 'retry-requested', phase: 'operator', detail: 'requested by admin:ada' });
  });

  it('cancels a running saga once (API and CLI), audited, and the coordinator carries it out at its deadline', async () => {
    const { sagaId } = await startSaga('ord-view-3');
    const cancel = (body: unknown) =>
      admin(`/${sagaId}/cancel`, { method: 'POST', body: JSON.stringify(body), headers: jsonType });
    const jsonType = { 'content-type': 'application/json' };
    for (const [body, says] of [
      [{ reason: 'x'.repeat(501) }, 'reason must be a string of 1 to 500 characters'],
      [{ reason: 42 }, 'reason must be a string'],
      [{ why: 'no' }, 'unknown field why'],
    ] as const) {
      const refused = await cancel(body);
      expect(refused.status).toBe(400);
      expect(await json(refused)).toMatchObject({ error: 'malformed_request', message: expect.stringContaining(says) });
    }
    expect((await admin(`/not-a-uuid/cancel`, { method: 'POST' })).status).toBe(400);
    expect((await admin(`/${randomUUID()}/cancel`, { method: 'POST' })).status).toBe(404);
    expect((await json(admin(`/${sagaId}`))).cancellation).toBeNull();

    const accepted = await cancel({ reason: 'customer called' });
    expect(accepted.status).toBe(202);
    expect(await json(accepted)).toEqual({ id: sagaId, cancel: 'scheduled', step: 'reserve-stock' });
    const again = await cancel({});
    expect(again.status).toBe(409);
    expect(await json(again)).toMatchObject({ error: 'saga_not_running', message: expect.stringContaining('pending') });
    const cli = (...args: string[]) => hookrailInProcess(ingress.database.url, args, { HOOKRAIL_OPERATOR: 'ops' });
    expect(await cli('sagas', 'cancel', sagaId)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('a cancel is already pending'),
    });
    const audit = await dataSource.query(
      `SELECT actor, action, details FROM operator_audit WHERE subject_type = 'saga' AND subject_id = $1`,
      [sagaId],
    );
    expect(audit).toEqual([
      { actor: 'admin:ada', action: 'saga-cancel', details: { step: 'reserve-stock', reason: 'customer called' } },
    ]);

    // The coordinator's deadline job carries it out: the reservation is released, then the saga ends cancelled.
    await expireSagaDeadlines(dataSource, coordinator);
    await move((tx) => coordinator.reply(tx, reply(sagaId, INVENTORY_STOCK_RELEASED_V1, { orderId: 'ord-view-3' })));
    const detail = await json(admin(`/${sagaId}`));
    expect(detail).toMatchObject({ state: 'cancelled', cancellation: 'cancelled by admin:ada: customer called' });
    expect(detail.history.map((entry: { event: string; state: string }) => `${entry.event} → ${entry.state}`)).toEqual([
      'started → running',
      'cancel-requested → running',
      'cancelled → compensating',
      'succeeded → cancelled',
    ]);
    expect((await json(admin('?state=cancelled'))).items.map((saga: { id: string }) => saga.id)).toEqual([sagaId]);
    expect((await cli('sagas', 'list')).stdout).toContain('cancelled 1');
    expect(await cli('sagas', 'cancel', sagaId)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('it is cancelled'),
    });

    // From the CLI, with a reason.
    const other = await startSaga('ord-view-4');
    expect(await cli('sagas', 'cancel', other.sagaId, '--reason', 'duplicate order', '--as', 'grace')).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('cancel of saga'),
    });
    expect((await json(admin(`/${other.sagaId}`))).cancellation).toBe('cancelled by cli:grace: duplicate order');
  });
});
