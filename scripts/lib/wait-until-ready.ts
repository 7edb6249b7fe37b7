const POLL_MS = 500;
const NOTE_EVERY_MS = 30_000;

/**
 * Polls every URL until each has answered 200 once, then calls `ready`. Every half minute without that, one line
 * names what is not ready yet (an app's own log says why).
 */
export async function waitUntilReady(urls: string[], ready: () => void): Promise<void> {
  const waiting = new Set(urls);
  let noted = Date.now();
  while (waiting.size > 0) {
    await Promise.all(
      [...waiting].map(async (url) => {
        const ok = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
          (response) => response.ok,
          () => false,
        );
        if (ok) waiting.delete(url);
      }),
    );
    if (waiting.size === 0) break;
    if (Date.now() - noted > NOTE_EVERY_MS) {
      noted = Date.now();
      console.log(`start: still waiting for ${[...waiting].join(', ')} (the apps' lines above say why)`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS).unref());
  }
  ready();
}
