import { Need } from '@app/access';
import { SetMetadata } from '@nestjs/common';

export const NEED = Symbol('NEED');

/** What a route needs of a token, and the consumer group it acts on when there is one per route. */
export interface RouteNeed {
  need: Need;
  group?: string;
}

/**
 * The role (and group) a route needs beyond its default: reading for GET, acting for the rest. E.g.
 * `@Needs('administer')` on a purge, `@Needs('operate', 'fulfilment')` on a saga's retry.
 */
export const Needs = (need: Need, group?: string) => SetMetadata(NEED, { need, group } satisfies RouteNeed);
