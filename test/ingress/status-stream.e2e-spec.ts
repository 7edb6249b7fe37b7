import { randomUUID } from 'node:crypto';
import { waitFor } from '@app/testing';
import { Ingress, orderData, post, secrets, startIngress } from './ingress-harness';
import { standardHeaders } from './signing';

interface Frame {
  id: string;
  data: { status: string; groups: Array<{ group: string; status: string }> };
}

/** Reads SSE frames from a live GET /events/:id/stream into `frames` until aborted. */
function openStream(url: string, lastEventId?: string) {
  const frames: Frame[] = [];
  const controller = new AbortController();
  const done = (async () => {
    const response = await fetch(url, {
      headers: lastEventId ? { 'last-event-id': lastEventId } : {},
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    let buffer = '';
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) return;
      buffer += Buffer.from(value).toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (id && data) frames.push({ id, data: JSON.parse(data) });
      }
    }
  })().catch((error: Error) => {
    if (error.name !== 'AbortError') throw error;
  });
  return { frames, close: () => controller.abort(), done };
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

    const first = openStream(url);
    await waitFor(() => first.frames.length === 1, { what: 'the first frame' });
    expect(first.frames[0].data.status).toBe('accepted');
    await ingress.query("UPDATE outbox SET published_at = now() + interval '1 millisecond' WHERE event_id = $1", [
      body.id,
    ]);
    await waitFor(() => first.frames.length === 2, { what: 'the published frame' });
    expect(first.frames[1].data.status).toBe('published');
    expect(Number(first.frames[1].id)).toBeGreaterThan(Number(first.frames[0].id));
    first.close();
    await first.done;

    const resumed = openStream(url, first.frames[1].id);
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
    const response = await fetch(`${ingress.url}/events/${randomUUID()}/stream`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not_found' });
  });
});
