import { DeadLetterAuditEntity, DeadLetterEntity } from '@app/dead-letters';

/** The tables the operator CLI writes: dead letters it replays or purges, and their audit. */
export const CLI_ENTITIES = [DeadLetterEntity, DeadLetterAuditEntity];
