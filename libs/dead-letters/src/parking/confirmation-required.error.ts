import { ParkedBehind } from './parked-keys.repository';

/**
 * A purge that would release parked events (or drop them, for a whole key) was asked without a confirmation. Nothing
 * changed; the caller shows what waits behind and asks again with the confirmation.
 */
export class ConfirmationRequiredError extends Error {
  override name = 'ConfirmationRequiredError';

  constructor(readonly parked: ParkedBehind[]) {
    super(describeParked(parked));
  }
}

/** One line per parked key: what a purge would set going. */
export function describeParked(parked: ParkedBehind[]): string {
  return parked
    .map(
      (entry) =>
        `dead letter ${entry.deadLetterId} holds key "${entry.key}" of group ${entry.group}: ${entry.parkedEvents} parked event(s) wait behind it`,
    )
    .join('; ');
}
