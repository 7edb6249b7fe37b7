import { DataSource, EntityManager } from 'typeorm';
import { updatedRows } from '../endpoints/webhook-endpoints.repository';

type Db = DataSource | EntityManager;

export interface WebhookCustomer {
  id: string;
  /** The operator's own id for it: what its events carry in their `customerid` attribute. */
  uid: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A customer as the operator API lists it: with how many endpoints it has. */
export interface WebhookCustomerView extends WebhookCustomer {
  endpoints: number;
}

const VIEW = `SELECT c.id, c.uid, c.name, c.created_at, c.updated_at,
       (SELECT count(*)::int FROM webhook_endpoints e WHERE e.customer_id = c.id) AS endpoints
  FROM webhook_customers c`;

/** The webhook_customers statements. */
export class WebhookCustomersRepository {
  constructor(private readonly db: Db) {}

  /** False when the uid is taken. */
  async insert(customer: Pick<WebhookCustomer, 'id' | 'uid' | 'name'>): Promise<boolean> {
    const rows: unknown = await this.db.query(
      `INSERT INTO webhook_customers (id, uid, name) VALUES ($1, $2, $3) ON CONFLICT (uid) DO NOTHING RETURNING id`,
      [customer.id, customer.uid, customer.name],
    );
    return updatedRows(rows).length > 0;
  }

  /** By uid. */
  async list(): Promise<WebhookCustomerView[]> {
    const rows: Array<Record<string, any>> = await this.db.query(`${VIEW} ORDER BY c.uid`);
    return rows.map(toView);
  }

  /** By its id (a UUID) or its uid. */
  async find(ref: { id: string } | { uid: string }): Promise<WebhookCustomerView | undefined> {
    const [row]: Array<Record<string, any>> =
      'id' in ref
        ? await this.db.query(`${VIEW} WHERE c.id = $1`, [ref.id])
        : await this.db.query(`${VIEW} WHERE c.uid = $1`, [ref.uid]);
    return row && toView(row);
  }

  /** In a transaction: the customer, kept from being deleted until the commit (an endpoint is being made for it). */
  async keep(id: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(`SELECT id FROM webhook_customers WHERE id = $1 FOR KEY SHARE`, [id]);
    return rows.length > 0;
  }

  /** The customer with its endpoints (their secrets, deliveries and attempts) and its tokens: foreign keys cascade. */
  async delete(id: string): Promise<boolean> {
    return (
      updatedRows(await this.db.query(`DELETE FROM webhook_customers WHERE id = $1 RETURNING id`, [id])).length > 0
    );
  }
}

function toView(row: Record<string, any>): WebhookCustomerView {
  return {
    id: row.id,
    uid: row.uid,
    name: row.name,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    endpoints: row.endpoints,
  };
}
