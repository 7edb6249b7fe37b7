import { Counter, Gauge, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { SAGA_STATES } from './saga-definition';
import { SagaTransition } from './saga-coordinator';
import { SagasRepository } from './sagas.repository';

/** The saga metrics, in the registry of the app that runs the coordinator. */
export class SagaMetrics {
  readonly sagas: Gauge<'type' | 'state'>;
  readonly transitions: Counter<'type' | 'state'>;

  /** `types`: the saga types this process coordinates, reported with 0 for states no saga is in. */
  constructor(registry: Registry, dataSource: DataSource, types: readonly string[]) {
    const registers = [registry];
    this.sagas = new Gauge({
      name: 'hookrail_sagas',
      help: 'Sagas by type and state (read from sagas at scrape time)',
      labelNames: ['type', 'state'],
      registers,
      async collect() {
        const counts = await SagasRepository.countByTypeAndState(dataSource);
        for (const type of types) for (const state of SAGA_STATES) this.set({ type, state }, 0);
        for (const row of counts) this.set({ type: row.type, state: row.state }, row.count);
      },
    });
    this.transitions = new Counter({
      name: 'hookrail_saga_transitions_total',
      help: 'Committed saga transitions, by the state the saga moved to',
      labelNames: ['type', 'state'],
      registers,
    });
  }

  count(transitions: readonly Pick<SagaTransition, 'type' | 'state'>[]): void {
    for (const { type, state } of transitions) this.transitions.inc({ type, state });
  }
}
