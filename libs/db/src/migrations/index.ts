import { InboundEventsAndOutbox1764450000000 } from './1764450000000-InboundEventsAndOutbox';

/** Every migration, oldest first. A new one is added here and in its own file. */
export const MIGRATIONS = [InboundEventsAndOutbox1764450000000];
