import { DeadLetterAuditEntity, DeadLetterEntity, ParkedKeyEntity } from '@app/dead-letters';

/** The tables the operator CLI writes: dead letters it replays or purges, the keys it purges, and their audit. */
export const CLI_ENTITIES = [DeadLetterEntity, DeadLetterAuditEntity, ParkedKeyEntity];
