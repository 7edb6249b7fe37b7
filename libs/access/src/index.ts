/**
 * Operator tokens (`@app/access`): named bearer tokens with a role, limited to consumer groups or event sources;
 * issuing, listing and revoking them with their audit, authenticating a bearer, and the pure permission rules. Free
 * of NestJS, so that the CLI can use it.
 */
export * from './access-errors';
export * from './access-tokens';
export * from './operator-tokens.repository';
export * from './roles';
export * from './token-admin';
export * from './token-expiry';
