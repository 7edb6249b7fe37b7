import { Dependency } from '@app/config';
import { Gauge } from 'prom-client';

/**
 * Keeps `hookrail_dependency_up{app,dependency}` for each dependency that has a label: told every check while the app
 * waits for them at start (`record`), then checking them itself every `everyMs` once it runs, so the gauge never
 * goes stale. A dependency not checked yet has no series (one waited for after another is not reported down).
 */
export class DependencyProbe {
  private timer?: NodeJS.Timeout;
  private checking?: Promise<void>;

  constructor(
    private readonly gauge: Gauge<'app' | 'dependency'>,
    private readonly app: string,
    private readonly dependencies: Dependency[],
    private readonly everyMs = 15_000,
  ) {}

  readonly record = (dependency: Dependency, up: boolean): void => {
    if (dependency.label) this.gauge.set({ app: this.app, dependency: dependency.label }, up ? 1 : 0);
  };

  start(): void {
    this.timer = setInterval(() => {
      this.checking ??= Promise.all(
        this.dependencies.map((dependency) =>
          dependency.check().then(
            () => this.record(dependency, true),
            () => this.record(dependency, false),
          ),
        ),
      ).then(() => void (this.checking = undefined));
    }, this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.checking;
  }
}
