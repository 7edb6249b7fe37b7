import { DeadLetterAudit, DeadLettersRepository } from '@app/dead-letters';
import { TrailEntry, TrailSource } from '../trail';

/**
 * The event's dead letters, one per group that gave up on it (with the original topic, partition and offset), every
 * replay and purge of them with who ran it (the operator audit), and their resolution once a replay was applied.
 */
export const deadLettersTrail: TrailSource = {
  name: 'dead-letters',
  async entries(event, { db }) {
    const letters = await new DeadLettersRepository(db).listByEvent(event.id);
    if (letters.length === 0) return [];
    const audit = await new DeadLetterAudit(db).actionsOn(letters.map((letter) => letter.id));
    const entries: TrailEntry[] = [];
    for (const letter of letters) {
      const position = `${letter.originalTopic} [${letter.originalPartition}] @${letter.originalOffset}`;
      entries.push({
        at: new Date(letter.deadAt),
        step: 'dead-lettered',
        level: letter.status === 'dead' ? 'error' : 'warn',
        group: letter.group,
        deadLetterId: letter.id,
        summary: `dead letter in ${letter.group} (${letter.errorClass}: ${letter.errorMessage}), read from ${position}; now ${letter.status}${letter.replayCount ? `, replayed ${letter.replayCount}×` : ''}`,
        detail: {
          deadLetterId: letter.id,
          group: letter.group,
          status: letter.status,
          errorClass: letter.errorClass,
          errorMessage: letter.errorMessage,
          attempts: letter.attempts,
          topic: letter.originalTopic,
          partition: letter.originalPartition,
          offset: letter.originalOffset,
          dltTopic: letter.dltTopic,
          replayCount: letter.replayCount,
        },
      });
      const actions = audit.filter((row) => row.deadLetterId === letter.id);
      const lastReplay = actions.filter((row) => row.action === 'replay').pop();
      for (const action of actions) {
        // The audit row is written when the whole request is done (a bulk replay is paced); the letter's own
        // replayed_at says when its last replay went out, which is what the timeline needs.
        const sentAt =
          action === lastReplay && letter.replayedAt && new Date(letter.replayedAt) <= new Date(action.at)
            ? new Date(letter.replayedAt)
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
      if (letter.resolvedAt)
        entries.push({
          at: new Date(letter.resolvedAt),
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
