/** The token of an `Authorization: Bearer <token>` header; null when the header is absent or not of that form. */
export function bearerOf(authorization: string | undefined): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? null;
}
