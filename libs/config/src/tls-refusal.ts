/** Node's codes for a certificate that TLS would not accept: not signed by a trusted authority, or out of date. */
const UNTRUSTED_CERTIFICATE = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
]);

/** True when a TLS handshake failed because the peer's certificate is not trusted (Kafka and Postgres alike). */
export const isUntrustedCertificate = (code: string | undefined): boolean => !!code && UNTRUSTED_CERTIFICATE.has(code);

/** A certificate that does not name the host the client dialled. */
export const HOST_NOT_IN_CERTIFICATE = 'ERR_TLS_CERT_ALTNAME_INVALID';
