import { clientRows } from '@app/db';
import {
  claimedRows,
  claimStatement,
  markPublishedStatement,
  notificationConcerns,
  OUTBOX_CHANNEL,
  OUTBOX_LANES,
  OutboxRepository,
  OutboxRow,
  PREPARE_RELAY_STATEMENTS,
} from '@app/outbox';
import { Client, QueryResult } from 'pg';
import { planLanes } from './lane-plan';
import { LaneLockRepository } from './lane-lock.repository';

/** More member slots than relays anyone would run against one database. */
const MAX_MEMBER_SLOTS = 1024;

export interface LaneChange {
  members: number;
  acquired: number[];
  released: number[];
}

/**
 * A relay's one dedicated Postgres connection. It holds the member lock and the lane locks, LISTENs for the writers'
 * NOTIFY (woken only by one that names a lane it owns, or every lane), and runs every claim-publish-mark transaction,
 * so that the locks and the work can only die together: a relay that lost its connection lost its lanes and its open
 * transaction at the same moment.
 */
export class LaneSession {
  readonly outbox: OutboxRepository;
  private readonly locks: LaneLockRepository;
  private owned: number[] = [];
  private slot = 0;
  broken?: Error;

  private constructor(
    private readonly client: Client,
    onNotification: () => void,
  ) {
    const rows = clientRows(client);
    this.outbox = new OutboxRepository(rows);
    this.locks = new LaneLockRepository(rows);
    // A NOTIFY naming only lanes another loop owns has nothing for this one: it sleeps on (its poll covers a lane
    // acquired since).
    client.on('notification', ({ payload }) => {
      if (notificationConcerns(payload, this.owned)) onNotification();
    });
    client.on('error', (error) => (this.broken ??= error));
    client.on('end', () => (this.broken ??= new Error('lane connection ended')));
  }

  static async open(url: string, onNotification: () => void): Promise<LaneSession> {
    // Statements on this connection are prepared once and their plans cached (clientRows). A plan cached while the
    // outbox was nearly empty could be a sequential scan that a backlog turns into a full-table scan per batch; this
    // connection only ever wants the outbox's indexes, so sequential scans are priced out of its plans.
    const client = new Client({
      connectionString: url,
      application_name: 'hookrail-relay',
      statement_timeout: 30_000,
      options: '-c enable_seqscan=off',
    });
    await client.connect();
    const session = new LaneSession(client, onNotification);
    try {
      await client.query(`LISTEN ${OUTBOX_CHANNEL}; ${PREPARE_RELAY_STATEMENTS}`);
      for (let slot = 0; slot < MAX_MEMBER_SLOTS; slot++) {
        if (await session.locks.tryJoinAsMember(slot)) {
          session.slot = slot;
          return session;
        }
      }
      throw new Error(`no free relay member slot among ${MAX_MEMBER_SLOTS}`);
    } catch (error) {
      await session.close();
      throw error;
    }
  }

  get lanes(): readonly number[] {
    return this.owned;
  }

  get memberSlot(): number {
    return this.slot;
  }

  /** One rebalancing step (see planLanes). Call it only between transactions. */
  async rebalance(): Promise<LaneChange> {
    const members = await this.locks.countMembers();
    const taken = await this.locks.findTakenLanes();
    const plan = planLanes({ lanes: OUTBOX_LANES, members, slot: this.slot, owned: this.owned, taken });
    if (plan.release.length) {
      await this.locks.unlockLanes(plan.release);
      this.owned = this.owned.filter((lane) => !plan.release.includes(lane));
    }
    const acquired = plan.acquire.length ? await this.locks.tryLockLanes(plan.acquire) : [];
    this.owned = [...this.owned, ...acquired].sort((a, b) => a - b);
    return { members, acquired, released: plan.release };
  }

  /**
   * One claim-publish-mark transaction in two round trips: the BEGIN goes with the claim (`claimStatement`), the mark
   * of what the broker acknowledged (`markPublishedStatement`) with the COMMIT, each as one simple-protocol query
   * running a statement prepared when the connection opened.
   * `work` gets the claimed rows (none: the transaction just ends) and returns the ids to mark with its result;
   * anything it throws, or a failed statement, rolls the whole transaction back.
   */
  async claimTransaction<T>(
    lanes: readonly number[],
    limit: number,
    work: (rows: OutboxRow[]) => Promise<{ published: readonly string[]; result: T }>,
  ): Promise<T> {
    try {
      const [, claimed] = (await this.client.query(`BEGIN; ${claimStatement(lanes, limit)}`)) as unknown as [
        QueryResult,
        QueryResult,
      ];
      const { published, result } = await work(claimedRows(claimed.rows));
      await this.client.query(published.length ? `${markPublishedStatement(published)}; COMMIT` : 'COMMIT');
      return result;
    } catch (error) {
      await this.client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  /** Gives back every lock (when the connection still works) and closes the connection. */
  async close(): Promise<void> {
    if (!this.broken) await this.locks.leave().catch(() => undefined);
    this.owned = [];
    await this.client.end().catch(() => undefined);
  }
}
