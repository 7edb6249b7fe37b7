import { badSignature, timestampOutsideTolerance } from '@app/http';

/** A signed timestamp must be within `toleranceSeconds` of now, in either direction (replay protection). */
export function checkTimestamp(value: string, nowSeconds: number, toleranceSeconds: number): number {
  if (!/^\d{1,12}$/.test(value)) throw badSignature('the signed timestamp is not a number of seconds');
  const timestamp = Number(value);
  if (nowSeconds - timestamp > toleranceSeconds)
    throw timestampOutsideTolerance(`the signed timestamp is older than the tolerance of ${toleranceSeconds} s`);
  if (timestamp - nowSeconds > toleranceSeconds)
    throw timestampOutsideTolerance(`the signed timestamp is more than ${toleranceSeconds} s in the future`);
  return timestamp;
}
