import { Scheme } from './source.config';

/** A source as the ingress uses it: secrets resolved, defaults applied. */
export interface Source {
  name: string;
  scheme: Scheme;
  secrets: string[];
  topic: string;
  typePath: string;
  aggregateIdPath?: string;
  customerIdPath?: string;
  dataPath?: string;
  toleranceSeconds: number;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;
