import { randomUUID } from 'node:crypto';
import { waitFor } from '@app/testing';
import { Ingress, orderData, post, secrets, startIngress } from './ingress-harness';
import { standardHeaders } from './signing';
import { openStream } from './sse-client';

interface Status {
  status: string;
  groups: Array<{ group: string; status: string }>;
}

describe('GET /events/:id/stream (Server-Sent Events)', () => {
  let ingress: Ingress;

  beforeAll(async () => {
    ingress = await startIngress();
  });

  afterAll(() => ingress.close());

  it('sends the current state, then each change, and resumes after Last-Event-ID without repeating', async () => {
    const payload = JSON.stringify({
      type: 'shop.order.placed.v1',
      timestamp: new Date().toISOString(),
      data: orderData(),
    });
    const { body } = await post(
      `${ingress.url}/webhooks/shop`,
      payload,
      standardHeaders(secrets.standard[0], randomUUID(), payload),
    );
    const url = `${ingress.url}/events/${body.id}/stream`;

    const first = openStream<Status>(url, await ingress.viewer());
    await waitFor(() => first.frames.length === 1, { what: 'the first frame' });
    expect(first.state.contentType).toBe('text/event-stream');
    expect(first.frames[0].data.status).toBe('accepted');
    await ingress.query("UPDATE outbox SET published_at = now() + interval '1 millisecond' WHERE event_id = $1", [
      body.id,
    ]);
    await waitFor(() => first.frames.length === 2, { what: 'the published frame' });
    expect(first.frames[1].data.status).toBe('published');
    expect(Number(first.frames[1].id)).toBeGreaterThan(Number(first.frames[0].id));
    first.close();
    await first.done;

    const resumed = openStream<Status>(url, { ...(await ingress.viewer()), 'last-event-id': first.frames[1].id! });
    await ingress.query(
      `INSERT INTO processed_events ("group", event_id, processed_at) VALUES ('ledger', $1, now() + interval '1 second')`,
      [body.id],
    );
    await waitFor(() => resumed.frames.length >= 1, { what: 'the frame after Last-Event-ID' });
    expect(resumed.frames[0].data.status).toBe('published');
    expect(resumed.frames[0].data.groups).toEqual([expect.objectContaining({ group: 'ledger', status: 'processed' })]);
    resumed.close();
    await resumed.done;
  });

  it('answers 404 as JSON, not a stream, for an unknown event', async () => {
    const response = await fetch(`${ingress.url}/events/${randomUUID()}/stream`, { headers: await ingress.viewer() });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not_found' });
  });
});
