import { issueToken, OperatorTokensRepository, revokeOperatorToken } from '@app/access';
import { connect } from '@app/db';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';

export interface TestTokenInput {
  role: 'viewer' | 'operator' | 'admin' | 'status';
  /** Unique by default. */
  name?: string;
  groups?: string[];
  sources?: string[];
  expiresAt?: Date;
}

/** `Authorization: Bearer <token>`, as a fetch's headers. */
export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** Issues a stored token on the test database, as `hookrail tokens create` does, and returns it. */
export async function issueTestToken(databaseUrl: string, input: TestTokenInput): Promise<string> {
  const name = input.name ?? `${input.role}-${randomBytes(4).toString('hex')}`;
  return withDataSource(databaseUrl, async (dataSource) => {
    const { token } = await issueToken(new OperatorTokensRepository(dataSource), { ...input, name, createdBy: 'test' });
    return token;
  });
}

/** Revokes a stored token, as `hookrail tokens revoke` does. */
export function revokeTestToken(databaseUrl: string, name: string): Promise<void> {
  return withDataSource(databaseUrl, (dataSource) => revokeOperatorToken(dataSource, name, 'test'));
}

async function withDataSource<T>(url: string, use: (dataSource: DataSource) => Promise<T>): Promise<T> {
  const dataSource = await connect({ url, applicationName: 'status-tokens-test', poolSize: 1 });
  try {
    return await use(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
