import { DataSource, EntityManager } from 'typeorm';
import { updatedRows } from '../endpoints/webhook-endpoints.repository';

type Db = DataSource | EntityManager;

export type CustomerTokenKind = 'api' | 'portal-link' | 'session';

export interface CustomerToken {
  id: string;
  customerId: string;
  kind: CustomerTokenKind;
  name: string;
  createdAt: Date;
  createdBy: string;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
  revokedBy: string | null;
}

/** A token found by its digest, with its customer's uid and name. */
export interface CustomerTokenOwner extends CustomerToken {
  customer: { id: string; uid: string; name: string };
}

export interface NewCustomerToken {
  customerId: string;
  kind: CustomerTokenKind;
  name: string;
  tokenHash: string;
  createdBy: string;
  expiresAt: Date;
}

const COLUMNS = `t.id, t.customer_id, t.kind, t.name, t.created_at, t.created_by, t.expires_at, t.used_at, t.revoked_at,
  t.revoked_by`;

/** The customer_tokens statements: only digests are stored; a token is revoked, never deleted. */
export class CustomerTokensRepository {
  constructor(private readonly db: Db) {}

  async insert(token: NewCustomerToken): Promise<void> {
    await this.db.query(
      `INSERT INTO customer_tokens (customer_id, kind, name, token_hash, created_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [token.customerId, token.kind, token.name, token.tokenHash, token.createdBy, token.expiresAt],
    );
  }

  /** The customer's tokens of a kind, newest first. */
  async list(customerId: string, kind: CustomerTokenKind): Promise<CustomerToken[]> {
    const rows: Array<Record<string, any>> = await this.db.query(
      `SELECT ${COLUMNS} FROM customer_tokens t WHERE t.customer_id = $1 AND t.kind = $2 ORDER BY t.id DESC`,
      [customerId, kind],
    );
    return rows.map(toToken);
  }

  /** The customer's live API token of that name, if any. */
  async liveApiToken(customerId: string, name: string): Promise<CustomerToken | undefined> {
    const [row]: Array<Record<string, any>> = await this.db.query(
      `SELECT ${COLUMNS} FROM customer_tokens t
        WHERE t.customer_id = $1 AND t.kind = 'api' AND t.name = $2 AND t.revoked_at IS NULL AND t.expires_at > now()`,
      [customerId, name],
    );
    return row && toToken(row);
  }

  /** Revokes the customer's live API tokens of that name; returns how many. */
  async revokeApiToken(customerId: string, name: string, actor: string): Promise<number> {
    const result: unknown = await this.db.query(
      `UPDATE customer_tokens SET revoked_at = now(), revoked_by = $3
        WHERE customer_id = $1 AND kind = 'api' AND name = $2 AND revoked_at IS NULL AND expires_at > now()
       RETURNING id`,
      [customerId, name, actor],
    );
    return updatedRows(result).length;
  }

  /** The token with this digest and its customer, whatever its state. */
  async findByHash(tokenHash: string): Promise<CustomerTokenOwner | undefined> {
    const [row]: Array<Record<string, any>> = await this.db.query(
      `SELECT ${COLUMNS}, c.uid AS customer_uid, c.name AS customer_name
         FROM customer_tokens t JOIN webhook_customers c ON c.id = t.customer_id
        WHERE t.token_hash = $1`,
      [tokenHash],
    );
    return (
      row && { ...toToken(row), customer: { id: row.customer_id, uid: row.customer_uid, name: row.customer_name } }
    );
  }

  /**
   * Opens a portal link: marks it used if it is live, unused and unexpired, in one statement, so that two exchanges of
   * one link cannot both succeed. Returns it, or undefined when it could not be used.
   */
  async useLink(tokenHash: string): Promise<CustomerToken | undefined> {
    const [row] = updatedRows(
      await this.db.query(
        `UPDATE customer_tokens t SET used_at = now()
          WHERE t.token_hash = $1 AND t.kind = 'portal-link' AND t.used_at IS NULL AND t.revoked_at IS NULL
            AND t.expires_at > now()
         RETURNING ${COLUMNS}`,
        [tokenHash],
      ),
    );
    return row && toToken(row);
  }
}

function toToken(row: Record<string, any>): CustomerToken {
  const date = (value: unknown) => (value ? new Date(value as string) : null);
  return {
    id: String(row.id),
    customerId: row.customer_id,
    kind: row.kind,
    name: row.name,
    createdAt: new Date(row.created_at),
    createdBy: row.created_by,
    expiresAt: new Date(row.expires_at),
    usedAt: date(row.used_at),
    revokedAt: date(row.revoked_at),
    revokedBy: row.revoked_by,
  };
}
