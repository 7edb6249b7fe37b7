import { DataSource, EntityManager } from 'typeorm';
import { Role } from './roles';

/** A token as listed: everything but its digest. */
export interface OperatorToken {
  id: string;
  name: string;
  role: Role;
  groups: string[] | null;
  sources: string[] | null;
  createdAt: Date;
  createdBy: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  revokedBy: string | null;
}

/** A stored token with the digest that finds it. */
export interface StoredOperatorToken extends OperatorToken {
  tokenHash: string;
}

export type NewOperatorToken = Pick<
  StoredOperatorToken,
  'name' | 'role' | 'groups' | 'sources' | 'tokenHash' | 'createdBy' | 'expiresAt'
>;

const COLUMNS = 'id, name, role, groups, sources, created_at, created_by, expires_at, revoked_at, revoked_by';

/** The operator_tokens statements, one method each. The token itself is never stored, only its sha256 digest. */
export class OperatorTokensRepository {
  constructor(private readonly db: DataSource | EntityManager) {}

  async insert(token: NewOperatorToken): Promise<OperatorToken> {
    const [row]: Array<Record<string, any>> = await this.db.query(
      `INSERT INTO operator_tokens (name, role, groups, sources, token_hash, created_by, expires_at)
       VALUES ($1, $2, $3::text[], $4::text[], $5, $6, $7)
       RETURNING ${COLUMNS}`,
      [token.name, token.role, token.groups, token.sources, token.tokenHash, token.createdBy, token.expiresAt],
    );
    return toToken(row);
  }

  /** The token whose digest this is, revoked and expired ones included (the caller says why it refuses them). */
  async findByHash(tokenHash: string): Promise<StoredOperatorToken | null> {
    const [row]: Array<Record<string, any>> = await this.db.query(
      `SELECT ${COLUMNS}, token_hash FROM operator_tokens WHERE token_hash = $1`,
      [tokenHash],
    );
    return row ? { ...toToken(row), tokenHash: row.token_hash } : null;
  }

  async findByName(name: string): Promise<OperatorToken | null> {
    const [row]: Array<Record<string, any>> = await this.db.query(
      `SELECT ${COLUMNS} FROM operator_tokens WHERE name = $1`,
      [name],
    );
    return row ? toToken(row) : null;
  }

  /** Every token, by name, without its digest. */
  async list(): Promise<OperatorToken[]> {
    const rows: Array<Record<string, any>> = await this.db.query(
      `SELECT ${COLUMNS} FROM operator_tokens ORDER BY name`,
    );
    return rows.map(toToken);
  }

  /** Revokes the token named so if it is live (neither revoked nor expired); returns whether it was. */
  async revoke(name: string, by: string): Promise<boolean> {
    // TypeORM's postgres driver answers an UPDATE … RETURNING with [rows, count].
    const [, revoked]: [unknown[], number] = await this.db.query(
      `UPDATE operator_tokens SET revoked_at = now(), revoked_by = $2
        WHERE name = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [name, by],
    );
    return revoked === 1;
  }
}

function toToken(row: Record<string, any>): OperatorToken {
  return {
    id: String(row.id),
    name: row.name,
    role: row.role,
    groups: row.groups,
    sources: row.sources,
    createdAt: new Date(row.created_at),
    createdBy: row.created_by,
    expiresAt: row.expires_at ? new Date(row.expires_at) : null,
    revokedAt: row.revoked_at ? new Date(row.revoked_at) : null,
    revokedBy: row.revoked_by,
  };
}
