import { ConfigError } from '@app/config';
import { schemeFor } from '../webhooks/verifiers/scheme.factory';
import { WebhookScheme } from '../webhooks/verifiers/webhook-scheme';
import { Source } from './source';

export interface RegisteredSource {
  source: Source;
  scheme: WebhookScheme;
}

/** The configured sources by name, each with its verifier; built once at boot. */
export class SourceRegistry {
  private readonly byName = new Map<string, RegisteredSource>();

  constructor(sources: Source[]) {
    for (const source of sources) {
      try {
        this.byName.set(source.name, { source, scheme: schemeFor(source) });
      } catch (error) {
        throw new ConfigError(
          `configuration error: HOOKRAIL_SOURCES: source ${source.name}: a secret is not valid for ${source.scheme} (${(error as Error).message})`,
        );
      }
    }
  }

  find(name: string): RegisteredSource | undefined {
    return this.byName.get(name);
  }

  /** Every configured source, in the order of the file. */
  all(): Source[] {
    return [...this.byName.values()].map(({ source }) => source);
  }
}
