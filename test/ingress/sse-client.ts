/** One Server-Sent Event as received: its name (`message` when none is given), its id when it has one, its data. */
export interface SseFrame<T = Record<string, any>> {
  event: string;
  id?: string;
  data: T;
}

/**
 * Reads the SSE frames of a live `GET /events/:id/stream` into `frames` until the server ends the stream (`ended`
 * turns true) or `close` aborts it. `status` is the response's status, once it has answered.
 */
export function openStream<T = Record<string, any>>(url: string, headers: Record<string, string> = {}) {
  const frames: Array<SseFrame<T>> = [];
  const state = { status: 0, contentType: null as string | null, ended: false };
  const controller = new AbortController();
  const done = (async () => {
    const response = await fetch(url, { headers, signal: controller.signal });
    state.status = response.status;
    state.contentType = response.headers.get('content-type');
    const reader = response.body!.getReader();
    let buffer = '';
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) return void (state.ended = true);
      buffer += Buffer.from(value).toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
        const id = /^id: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (data) frames.push({ event, ...(id !== undefined && { id }), data: JSON.parse(data) as T });
      }
    }
  })().catch((error: Error) => {
    if (error.name !== 'AbortError') throw error;
  });
  return { frames, state, close: () => controller.abort(), done };
}
