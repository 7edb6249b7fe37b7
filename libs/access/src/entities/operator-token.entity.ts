import { Check, Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

/**
 * A named bearer token of the operator API: its role, the consumer groups it is limited to (null: every group) and,
 * for a `status` token, the event sources whose status it may read (null: every source). Only the sha256 digest of
 * the token is kept. Revoked, never deleted.
 */
@Entity('operator_tokens')
@Unique('uq_operator_tokens_name', ['name'])
@Unique('uq_operator_tokens_token_hash', ['tokenHash'])
@Check('ck_operator_tokens_role', `"role" IN ('viewer', 'operator', 'admin', 'status')`)
@Check('ck_operator_tokens_groups', `"groups" IS NULL OR "role" NOT IN ('admin', 'status')`)
@Check('ck_operator_tokens_sources', `"sources" IS NULL OR "role" = 'status'`)
export class OperatorTokenEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'pk_operator_tokens' })
  id: string;

  @Column('text')
  name: string;

  /** `viewer`, `operator`, `admin` or `status`. */
  @Column('text')
  role: string;

  @Column('text', { array: true, nullable: true })
  groups: string[] | null;

  @Column('text', { array: true, nullable: true })
  sources: string[] | null;

  /** sha256 of the token, hex. */
  @Column('text', { name: 'token_hash' })
  tokenHash: string;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('text', { name: 'created_by' })
  createdBy: string;

  @Column('timestamptz', { name: 'expires_at', nullable: true })
  expiresAt: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;

  @Column('text', { name: 'revoked_by', nullable: true })
  revokedBy: string | null;
}
