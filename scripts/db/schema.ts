// The whole schema, one list: the composition root of the tables that migrations create. Each app lists the tables
// it writes (`<app>.entities.ts`, owners in docs/architecture.md, Tables); `npm run db:check` and the migrations test
// compare the union with what the migrations build. A new table's entity goes in its owning app's list.
import { ADMIN_ENTITIES } from '../../apps/admin/src/admin.entities';
import { CLI_ENTITIES } from '../../apps/cli/src/cli.entities';
import { CONSUMERS_ENTITIES } from '../../apps/consumers/src/consumers.entities';
import { INGRESS_ENTITIES } from '../../apps/ingress/src/ingress.entities';
import { RELAY_ENTITIES } from '../../apps/relay/src/relay.entities';

export const SCHEMA_ENTITIES = [
  ...new Set([...INGRESS_ENTITIES, ...ADMIN_ENTITIES, ...RELAY_ENTITIES, ...CONSUMERS_ENTITIES, ...CLI_ENTITIES]),
];
