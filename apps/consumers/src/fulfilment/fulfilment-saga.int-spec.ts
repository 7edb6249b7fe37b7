import {
  INVENTORY_STOCK_RESERVED_V1,
  SHOP_ORDER_FULFILLED_V1,
  SHOP_ORDER_FULFILMENT_FAILED_V1,
  TOPICS,
} from '@app/contracts';
import { deadLetterIdOf, DeadLettersRepository, replayDeadLetters } from '@app/dead-letters';
import { nameUuid } from '@app/saga';
import { committedOffsets, produce, waitFor } from '@app/testing';
import { Producer } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { placedOrder, SagaTestBed } from './testing/saga-test-bed';

describe('order fulfilment saga (real Kafka, Postgres, relay process and HTTP providers)', () => {
  let bed: SagaTestBed;
  let producer: Producer;

  beforeAll(async () => {
    bed = await SagaTestBed.start('saga');
    await bed.startConsumers();
    await bed.startRelay();
    producer = bed.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await bed?.stop();
  });

  const chargesOf = (orderId: string) => bed.payments.charges.filter((charge) => charge.reference === orderId);
  const refundsOf = (orderId: string) => {
    const ids = new Set(chargesOf(orderId).map((charge) => charge.id));
    return bed.payments.refunds.filter((refund) => ids.has(refund.chargeId));
  };

  it('reserves, charges and ships, then completes and publishes shop.order.fulfilled.v1', async () => {
    await bed.setStock('book', 10);
    await bed.placeOrders([placedOrder('ord-happy', { amount: 4200 })]);

    const saga = await bed.sagaIn('ord-happy', 'completed');
    expect(await bed.history(saga.id)).toEqual([
      'started reserve-stock/action → running',
      'succeeded reserve-stock/action → running',
      'succeeded charge-card/action → running',
      'succeeded create-shipment/action → completed',
    ]);
    expect(await bed.commandsSent('ord-happy')).toEqual([
      'inventory.reserve-stock.v1',
      'payments.charge-card.v1',
      'shipping.create-shipment.v1',
    ]);
    expect(chargesOf('ord-happy')).toEqual([expect.objectContaining({ amount: 4200, currency: 'EUR' })]);
    expect(bed.shipping.shipments.filter((shipment) => shipment.reference === 'ord-happy')).toHaveLength(1);
    expect(await bed.stock('book')).toBe(8);
    expect(await bed.outcomes('ord-happy')).toEqual([
      {
        type: SHOP_ORDER_FULFILLED_V1,
        data: expect.objectContaining({
          orderId: 'ord-happy',
          sagaId: saga.id,
          chargeId: chargesOf('ord-happy')[0].id,
          shipmentId: bed.shipping.shipments.find((shipment) => shipment.reference === 'ord-happy')!.id,
        }),
      },
    ]);

    // Every command, reply and outcome of the saga names its type's catalogue entry.
    const published: Array<{ type: string; dataschema: string | null }> = await bed.dataSource.query(
      `SELECT headers->>'ce_type' AS type, headers->>'ce_dataschema' AS dataschema FROM outbox WHERE key = $1`,
      ['ord-happy'],
    );
    expect(published.length).toBeGreaterThanOrEqual(7);
    expect(published.filter(({ type, dataschema }) => dataschema !== `urn:hookrail:event:${type}`)).toEqual([]);
  });

  it('refunds and then releases, in that order, when shipping fails for good; stock back, one charge, one refund', async () => {
    await bed.setStock('lamp', 5);
    bed.shipping.configure({ rejectNext: 1 });
    await bed.placeOrders([placedOrder('ord-unshippable', { amount: 1500, lines: [{ sku: 'lamp', quantity: 3 }] })]);

    const saga = await bed.sagaIn('ord-unshippable', 'compensated');
    expect(await bed.history(saga.id)).toEqual([
      'started reserve-stock/action → running',
      'succeeded reserve-stock/action → running',
      'succeeded charge-card/action → running',
      'failed create-shipment/action → compensating',
      'succeeded charge-card/compensation → compensating',
      'succeeded reserve-stock/compensation → compensated',
    ]);
    expect(await bed.commandsSent('ord-unshippable')).toEqual([
      'inventory.reserve-stock.v1',
      'payments.charge-card.v1',
      'shipping.create-shipment.v1',
      'payments.refund-charge.v1',
      'inventory.release-stock.v1',
    ]);
    expect(saga.failure).toMatch(/undeliverable|cannot deliver/);
    expect(await bed.stock('lamp')).toBe(5);
    expect(chargesOf('ord-unshippable')).toHaveLength(1);
    expect(refundsOf('ord-unshippable')).toEqual([expect.objectContaining({ amount: 1500 })]);
    // The refund happened before the release: the payment row was refunded before the reservation was released.
    const [{ refunded_first: refundedFirst }] = await bed.dataSource.query(
      `SELECT p.updated_at < r.updated_at AS refunded_first
         FROM payments p JOIN stock_reservations r USING (saga_id) WHERE saga_id = $1`,
      [saga.id],
    );
    expect(refundedFirst).toBe(true);
    expect(await bed.outcomes('ord-unshippable')).toEqual([
      {
        type: SHOP_ORDER_FULFILMENT_FAILED_V1,
        data: expect.objectContaining({ sagaId: saga.id, reason: saga.failure }),
      },
    ]);
  });

  it('compensates nothing and charges nothing when stock runs out at the first step', async () => {
    await bed.setStock('rare-stamp', 1);
    await bed.setStock('postcard', 5);
    const lines = [
      { sku: 'postcard', quantity: 1 },
      { sku: 'rare-stamp', quantity: 2 },
    ];
    await bed.placeOrders([placedOrder('ord-too-many', { lines })]);

    const saga = await bed.sagaIn('ord-too-many', 'compensated');
    expect(await bed.history(saga.id)).toEqual([
      'started reserve-stock/action → running',
      'failed reserve-stock/action → compensated',
    ]);
    expect(saga.failure).toBe('out of stock: rare-stamp (2 wanted, 1 available)');
    expect(await bed.commandsSent('ord-too-many')).toEqual(['inventory.reserve-stock.v1']);
    expect(chargesOf('ord-too-many')).toEqual([]);
    // All or none: the postcard taken while the stamps were short went back in the same transaction.
    expect(await bed.stock('rare-stamp')).toBe(1);
    expect(await bed.stock('postcard')).toBe(5);
    expect((await bed.outcomes('ord-too-many'))[0]).toMatchObject({
      type: SHOP_ORDER_FULFILMENT_FAILED_V1,
      data: { reason: 'out of stock: rare-stamp (2 wanted, 1 available)' },
    });
  });

  it('moves nothing twice for a reply delivered three times, or answered again under new ids', async () => {
    await bed.setStock('pen', 10);
    const order = placedOrder('ord-dupes', { lines: [{ sku: 'pen', quantity: 1 }] });
    await bed.placeOrders([order]);
    const saga = await bed.sagaIn('ord-dupes', 'completed');
    const history = await bed.history(saga.id);
    const commands = await bed.commandsSent('ord-dupes');
    const [reply] = await bed.dataSource.query(
      `SELECT key, value, headers FROM outbox WHERE key = $1 AND headers->>'ce_type' = $2`,
      ['ord-dupes', INVENTORY_STOCK_RESERVED_V1],
    );
    const replies = bed.topic(TOPICS.fulfilmentReplies);
    // The same message three times, and three answers to the same command under new ids (a participant that
    // applied a resent command again): the dedupe row absorbs the first kind, the saga's step the second.
    const again = (id: string) => ({
      key: reply.key,
      value: reply.value,
      headers: { ...reply.headers, ce_id: id, ce_hookrailid: id },
    });
    const resent = [randomUUID(), randomUUID(), randomUUID()];
    await produce(bed.kafka, replies, [
      again(reply.headers.ce_id),
      again(reply.headers.ce_id),
      again(reply.headers.ce_id),
      ...resent.map(again),
    ]);
    await waitFor(
      async () =>
        (
          await bed.dataSource.query(
            `SELECT count(*)::int AS n FROM processed_events WHERE "group" = 'fulfilment' AND event_id = ANY($1)`,
            [resent],
          )
        )[0].n === 3,
      { what: 'the re-answered replies consumed' },
    );
    expect(await bed.history(saga.id)).toEqual(history);
    expect(await bed.commandsSent('ord-dupes')).toEqual(commands);
    expect(chargesOf('ord-dupes')).toHaveLength(1);
    expect(await bed.stock('pen')).toBe(9);
  });

  it('starts no second saga and sends no command when an old order event comes back through dead-letter replay', async () => {
    await bed.setStock('mug', 10);
    const order = placedOrder('ord-replayed', { lines: [{ sku: 'mug', quantity: 1 }] });
    await bed.placeOrders([order]);
    const saga = await bed.sagaIn('ord-replayed', 'completed');
    const commands = await bed.commandsSent('ord-replayed');
    const [record] = await bed.dataSource.query(`SELECT key, value, headers FROM outbox WHERE event_id = $1`, [
      order.id,
    ]);
    const deadLetters = new DeadLettersRepository(bed.dataSource);
    const replay = async (offset: string) => {
      // As the dead-letter store indexes a fulfilment dead letter of this order event…
      await deadLetters.index({
        id: deadLetterIdOf('fulfilment', bed.topic(TOPICS.shopOrders), 0, offset),
        group: 'fulfilment',
        eventId: order.id,
        type: order.type,
        key: record.key,
        originalTopic: bed.topic(TOPICS.shopOrders),
        originalPartition: 0,
        originalOffset: offset,
        dltTopic: bed.topic('fulfilment.dlt'),
        dltPartition: 0,
        dltOffset: offset,
        replayTopic: bed.topic('fulfilment.replay'),
        payload: Buffer.from(record.value),
        headers: record.headers,
        errorClass: 'Error',
        errorMessage: 'connection terminated unexpectedly',
        errorStack: null,
        attempts: 5,
        firstFailedAt: new Date(),
        deadAt: new Date(),
        replayCount: 0,
        replayOf: null,
      });
      // …and an operator replays it (`hookrail dlq replay`), to fulfilment.replay.
      const result = await replayDeadLetters(bed.dataSource, async () => producer, {
        filter: { group: 'fulfilment', eventId: order.id },
        actor: 'cli:test',
      });
      expect(result.replayed).toHaveLength(1);
    };
    const replaysConsumed = async () =>
      (await committedOffsets(bed.kafka, bed.topic('fulfilment'), bed.topic('fulfilment.replay')))[0];
    const processed = () =>
      bed.dataSource
        .query(`SELECT 1 FROM processed_events WHERE "group" = 'fulfilment' AND event_id = $1`, [order.id])
        .then((rows) => rows.length === 1);

    // Within the dedupe window the dedupe row absorbs it.
    await replay('1000');
    await waitFor(async () => (await replaysConsumed()) === 1, { what: 'the replay consumed' });
    // Past the dedupe window (its processed_events row pruned), the saga's uniqueness per order decides.
    await bed.dataSource.query(`DELETE FROM processed_events WHERE "group" = 'fulfilment' AND event_id = $1`, [
      order.id,
    ]);
    await bed.dataSource.query(`DELETE FROM consumer_event_status WHERE "group" = 'fulfilment' AND event_id = $1`, [
      order.id,
    ]);
    expect(await processed()).toBe(false);
    await replay('1001');
    await waitFor(async () => (await replaysConsumed()) === 2, { what: 'the second replay consumed' });
    expect(await processed()).toBe(true);

    expect(await bed.dataSource.query(`SELECT id FROM sagas WHERE correlation_id = 'ord-replayed'`)).toEqual([
      { id: saga.id },
    ]);
    expect(await bed.commandsSent('ord-replayed')).toEqual(commands);
    expect(chargesOf('ord-replayed')).toHaveLength(1);
  });

  it('derives message ids from names, so a rebuilt command or reply has the id it had', () => {
    expect(nameUuid('a')).toBe(nameUuid('a'));
    expect(nameUuid('a')).not.toBe(nameUuid('b'));
    expect(nameUuid('a')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
