import { LookupAddress, LookupOptions } from 'node:dns';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` / `https.request` that answers every name with the one address the guard checked:
 * the connection goes where the check said, whatever a second DNS answer would be (DNS rebinding). The host name
 * itself still travels in the Host header and as the TLS server name, so certificates are verified against it.
 */
export function pinnedLookup(address: string, family: 4 | 6) {
  return (_hostname: string, options: LookupOptions | LookupCallback, callback?: LookupCallback): void => {
    const done = (typeof options === 'function' ? options : callback)!;
    const all = typeof options === 'object' && options.all;
    if (all) done(null, [{ address, family }]);
    else done(null, address, family);
  };
}
