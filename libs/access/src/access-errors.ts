/** A token request that cannot be done as written: a bad name, role, group, source or expiry. */
export class TokenInputError extends Error {
  override name = 'TokenInputError';
}

/** The request was understood but refused: the name is taken, or no live token has it. */
export class TokenRefusedError extends Error {
  override name = 'TokenRefusedError';
}
