import { BaseEnv } from '@app/config';

/** The relay's configuration; read from the environment once, in main.ts. */
export class RelayEnv extends BaseEnv {}
