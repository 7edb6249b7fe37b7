import { Logger } from 'pino';

/**
 * Fault injection for the crash tests (HOOKRAIL_FAULT_KILL_AFTER_PROVIDER_CALLS): the process kills itself (SIGKILL)
 * right after its Nth provider call returned, before the outcome is recorded. 0 never does.
 */
export class ProviderCallFault {
  private calls = 0;

  constructor(
    private readonly killAfter: number,
    private readonly logger: Logger,
  ) {}

  /** Call right after a provider call returned. */
  called(fields: Record<string, unknown>): void {
    if (this.killAfter <= 0 || ++this.calls < this.killAfter) return;
    this.logger.warn(
      { ...fields, calls: this.calls },
      'fault injection: killing the process after the provider call, before recording its outcome',
    );
    process.kill(process.pid, 'SIGKILL');
  }
}
