import { SHOP_ORDER_PLACED_V1 } from '@app/contracts';
import { ChaosGroup, noneRow } from './chaos-group';

const PROVIDER = 'model';

/**
 * The agent turns an order placed with a note into one model task, worked by leased workers in the consumers
 * processes. What counts: one task per such event, `done`, none for anything else. It acts on one event per order
 * (the `placed` one), so beyond the run's processed_at check there is no sequence within an order to observe.
 */
export const AGENT_CHAOS: ChaosGroup = {
  group: 'agent',
  providers: [
    {
      name: PROVIDER,
      entry: 'apps/consumers/src/agent/dev-model/main.js',
      env: (port) => ({ MODEL_PORT: String(port), MODEL_LATENCY_MS: '300' }),
      readyLine: 'fake model listening on',
    },
  ],
  consumerEnv: (urls) => ({
    MODEL_BASE_URL: `${urls[PROVIDER]}/v1`,
    // Short leases so that a killed worker's task is taken over within seconds.
    AGENT_LEASE_MS: '4000',
    AGENT_RETRY_BASE_MS: '500',
    AGENT_RETRY_MAX_MS: '5000',
  }),
  // Its handler takes every order placed (and applies it once); only those with a note become a task.
  handles: (event) => event.type === SHOP_ORDER_PLACED_V1,
  async inHand(ctx) {
    const { rows } = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM agent_tasks WHERE state <> 'done'`,
    );
    return rows[0].n;
  },
  async check(ctx) {
    const tasks = await ctx.db.query<{ event_id: string; state: string; attempts: number }>(
      `SELECT event_id, state, attempts FROM agent_tasks`,
    );
    const byEvent = new Map<string, Array<{ state: string; attempts: number }>>();
    for (const row of tasks.rows) byEvent.set(row.event_id, [...(byEvent.get(row.event_id) ?? []), row]);
    const withNote = ctx.expected.filter((event) => (event.data.note ?? '').trim() !== '');
    const expectedIds = new Set(withNote.map((event) => event.id));
    const notDone = withNote
      .filter((event) => byEvent.get(event.id)?.length !== 1 || byEvent.get(event.id)![0].state !== 'done')
      .map((event) => `${event.webhookId}: ${JSON.stringify(byEvent.get(event.id) ?? [])}`);
    const attempts = tasks.rows.reduce((sum, row) => sum + row.attempts, 0);
    return [
      noneRow(
        `agent: one task per order placed with a note, done (${withNote.length}; ${attempts} claims)`,
        'tasks missing, twice or not done',
        notDone,
      ),
      noneRow(
        'agent: no task for anything else',
        'stray tasks',
        [...byEvent.keys()].filter((eventId) => !expectedIds.has(eventId)),
      ),
    ];
  },
};
