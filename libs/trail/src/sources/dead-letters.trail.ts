import { TrailEntry, TrailSource } from '../trail';

interface DeadLetterRow {
  id: string;
  group: string;
  original_topic: string;
  original_partition: number;
  original_offset: string;
  dlt_topic: string;
  error_class: string;
  error_message: string;
  attempts: number;
  dead_at: Date;
  status: string;
  replay_count: number;
  replayed_at: Date | null;
  resolved_at: Date | null;
  purged_at: Date | null;
}

interface AuditRow {
  dead_letter_id: string;
  at: Date;
  actor: string;
  action: string;
  count: number;
}

/**
 * The event's dead letters, one per group that gave up on it (with the original topic, partition and offset), every
 * replay and purge of them with who ran it (dead_letter_audit), and their resolution once a replay was applied.
 */
export const deadLettersTrail: TrailSource = {
  name: 'dead-letters',
  async entries(event, { db }) {
    const letters: DeadLetterRow[] = await db.query(
      `SELECT id, "group", original_topic, original_partition, original_offset, dlt_topic, error_class, error_message,
              attempts, dead_at, status, replay_count, replayed_at, resolved_at, purged_at
         FROM dead_letters WHERE event_id = $1 ORDER BY dead_at`,
      [event.id],
    );
    if (letters.length === 0) return [];
    const audit: AuditRow[] = await db.query(
      `SELECT d.id AS dead_letter_id, a.at, a.actor, a.action, a.count
         FROM dead_letter_audit a JOIN unnest($1::uuid[]) AS d(id) ON a.dead_letter_ids @> ARRAY[d.id]
        ORDER BY a.at`,
      [letters.map((letter) => letter.id)],
    );
    const entries: TrailEntry[] = [];
    for (const letter of letters) {
      const position = `${letter.original_topic} [${letter.original_partition}] @${letter.original_offset}`;
      entries.push({
        at: new Date(letter.dead_at),
        step: 'dead-lettered',
        level: letter.status === 'dead' ? 'error' : 'warn',
        group: letter.group,
        deadLetterId: letter.id,
        summary: `dead letter in ${letter.group} (${letter.error_class}: ${letter.error_message}), read from ${position}; now ${letter.status}${letter.replay_count ? `, replayed ${letter.replay_count}×` : ''}`,
        detail: {
          deadLetterId: letter.id,
          group: letter.group,
          status: letter.status,
          errorClass: letter.error_class,
          errorMessage: letter.error_message,
          attempts: letter.attempts,
          topic: letter.original_topic,
          partition: letter.original_partition,
          offset: letter.original_offset,
          dltTopic: letter.dlt_topic,
          replayCount: letter.replay_count,
        },
      });
      const actions = audit.filter((row) => row.dead_letter_id === letter.id);
      const lastReplay = actions.filter((row) => row.action === 'replay').pop();
      for (const action of actions) {
        // The audit row is written when the whole request is done (a bulk replay is paced); the letter's own
        // replayed_at says when its last replay went out, which is what the timeline needs.
        const sentAt =
          action === lastReplay && letter.replayed_at && new Date(letter.replayed_at) <= new Date(action.at)
            ? new Date(letter.replayed_at)
            : new Date(action.at);
        entries.push({
          at: sentAt,
          step: action.action === 'replay' ? 'replayed' : 'purged',
          level: 'info',
          group: letter.group,
          deadLetterId: letter.id,
          summary: `${action.action === 'replay' ? `replayed to ${letter.group}.replay` : 'purged'} by ${action.actor}${action.count > 1 ? ` (with ${action.count - 1} other dead letter(s))` : ''}`,
          detail: {
            deadLetterId: letter.id,
            group: letter.group,
            actor: action.actor,
            action: action.action,
            recordedAt: new Date(action.at).toISOString(),
          },
        });
      }
      if (letter.resolved_at)
        entries.push({
          at: new Date(letter.resolved_at),
          step: 'resolved',
          level: 'ok',
          group: letter.group,
          deadLetterId: letter.id,
          summary: `dead letter resolved: ${letter.group} applied the replay`,
          detail: { deadLetterId: letter.id, group: letter.group },
        });
    }
    return entries;
  },
};
