import { Database, managerRows } from '@app/db';
import {
  CLOUDEVENTS_SOURCE,
  SourceRejection,
  SourceRejectionsRepository,
  SourceRejectionsSummary,
  summarizeRejections,
  UNKNOWN_SOURCE,
} from '@app/rejections';
import { Inject, Injectable } from '@nestjs/common';
import { notFound } from '@app/http';
import { optionalPositiveInt } from './dead-letter-selection';

export const ADMIN_SOURCES = Symbol('ADMIN_SOURCES');

/** What /admin may show of the configured sources: never their secrets. */
export interface AdminSources {
  sources: Array<{ name: string; scheme: string; topic: string }>;
  keptPerSource: number;
}

export interface SourceView extends SourceRejectionsSummary {
  /**
   * `webhook`: a configured source; `cloudevents`: POST /events; `unknown`: deliveries to a name no source has;
   * `removed`: rejections kept of a source no longer configured.
   */
  kind: 'webhook' | 'cloudevents' | 'unknown' | 'removed';
  scheme?: string;
  topic?: string;
}

/**
 * GET /admin/sources and GET /admin/sources/:name/rejections: each sender with the rejected deliveries kept of it
 * (the newest REJECTIONS_KEPT_PER_SOURCE, counted by reason), and those deliveries, newest first.
 */
@Injectable()
export class ListSourcesUseCase {
  constructor(
    private readonly database: Database,
    @Inject(ADMIN_SOURCES) private readonly configured: AdminSources,
  ) {}

  async list(): Promise<{ keptPerSource: number; sources: SourceView[] }> {
    const counts = await (await this.repository()).countByReason();
    const names = this.configured.sources.map((source) => source.name);
    const summaries = summarizeRejections(counts, [...names, CLOUDEVENTS_SOURCE]);
    const sources = summaries.map((summary): SourceView => {
      const source = this.configured.sources.find(({ name }) => name === summary.source);
      if (source) return { ...summary, kind: 'webhook', scheme: source.scheme, topic: source.topic };
      if (summary.source === CLOUDEVENTS_SOURCE || summary.source === UNKNOWN_SOURCE)
        return { ...summary, kind: summary.source };
      return { ...summary, kind: 'removed' };
    });
    return { keptPerSource: this.configured.keptPerSource, sources };
  }

  async rejections(
    name: string,
    query: Record<string, unknown>,
  ): Promise<{ source: string; keptPerSource: number; rejections: SourceRejection[] }> {
    const limit = optionalPositiveInt(query, 'limit', this.configured.keptPerSource) ?? this.configured.keptPerSource;
    const repository = await this.repository();
    const rejections = await repository.forSource(name, limit);
    const known =
      name === CLOUDEVENTS_SOURCE ||
      name === UNKNOWN_SOURCE ||
      this.configured.sources.some((source) => source.name === name);
    if (!known && rejections.length === 0)
      throw notFound(
        `no source "${name.slice(0, 100)}": configured are ${this.configured.sources.map((s) => s.name).join(', ') || 'none'} ` +
          `(and ${CLOUDEVENTS_SOURCE}, ${UNKNOWN_SOURCE})`,
      );
    return { source: name, keptPerSource: this.configured.keptPerSource, rejections };
  }

  private async repository(): Promise<SourceRejectionsRepository> {
    return new SourceRejectionsRepository(managerRows((await this.database.connection()).manager));
  }
}
