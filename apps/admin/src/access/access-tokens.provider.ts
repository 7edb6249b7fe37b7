import { AccessTokens, OperatorTokensRepository } from '@app/access';
import { Database } from '@app/db';
import { Provider } from '@nestjs/common';

/**
 * The operator plane's AccessTokens: the bootstrap ADMIN_TOKEN, checked without the database, and the named tokens,
 * looked up through the pool on each request (so the app starts, and the bootstrap token works, while Postgres is
 * still coming up).
 */
export function accessTokensProvider(adminToken: string): Provider {
  return {
    provide: AccessTokens,
    inject: [Database],
    useFactory: (database: Database) =>
      new AccessTokens(adminToken, {
        findByHash: async (hash) => new OperatorTokensRepository(await database.connection()).findByHash(hash),
      }),
  };
}
