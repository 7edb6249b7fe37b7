import { parseArgs } from 'node:util';

/** The CLI's options, for `parseArgs`. */
export const OPTIONS = {
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  'dry-run': { type: 'boolean', default: false },
  yes: { type: 'boolean', short: 'y', default: false },
  all: { type: 'boolean', default: false },
  limit: { type: 'string' },
  rate: { type: 'string' },
  as: { type: 'string' },
  group: { type: 'string', multiple: true },
  type: { type: 'string' },
  'error-class': { type: 'string' },
  key: { type: 'string' },
  'event-id': { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  status: { type: 'string' },
  'event-type': { type: 'string', multiple: true },
  description: { type: 'string' },
  ordered: { type: 'boolean', default: false },
  'max-in-flight': { type: 'string' },
  reason: { type: 'string' },
  overlap: { type: 'string' },
  state: { type: 'string' },
  partitions: { type: 'boolean', default: false },
  role: { type: 'string' },
  groups: { type: 'string' },
  sources: { type: 'string' },
  expires: { type: 'string' },
  name: { type: 'string' },
  customer: { type: 'string' },
} as const;

/** The options as `parseArgs` gives them for OPTIONS. */
export type ParsedValues = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>
>['values'];
