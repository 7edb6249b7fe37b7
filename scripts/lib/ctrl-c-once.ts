/** A Ctrl-C within this long of the one before is the same Ctrl-C. */
export const SAME_CTRL_C_MS = 3000;

/**
 * A Ctrl-C reaches `npm start`'s launcher twice: from the terminal, and forwarded by npm, which on a busy machine can
 * be a second or more later. concurrently passes each SIGINT on to the apps, and an app takes a second one while
 * stopping as an order to exit at once. So the SIGINT listeners registered so far run once per Ctrl-C: a copy sooner
 * than `sameWithinMs` after the one passed on is dropped; a Ctrl-C pressed again later still goes through.
 */
export function passOnCtrlCOnce(
  target: Pick<NodeJS.Process, 'listeners' | 'removeAllListeners' | 'on'> = process,
  sameWithinMs = SAME_CTRL_C_MS,
  now: () => number = Date.now,
): void {
  const passOn = target.listeners('SIGINT');
  target.removeAllListeners('SIGINT');
  let lastAt: number | undefined;
  target.on('SIGINT', (signal) => {
    if (lastAt !== undefined && now() - lastAt < sameWithinMs) return;
    lastAt = now();
    for (const listener of passOn) listener(signal);
  });
}
