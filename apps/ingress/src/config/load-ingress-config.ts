import { ConfigError, configErrorMessage, loadConfig } from '@app/config';
import { loadSources } from '../sources/sources.loader';
import { IngressEnv } from './ingress.env';

/**
 * The ingress's configuration, checked in one go: the environment and, when HOOKRAIL_SOURCES names it, the sources
 * file. Every problem of both is in the one ConfigError.
 */
export function loadIngressConfig(env: NodeJS.ProcessEnv = process.env): IngressEnv {
  const problems: string[] = [];
  let config: IngressEnv | undefined;
  try {
    config = loadConfig(IngressEnv, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  if (env.HOOKRAIL_SOURCES) {
    try {
      loadSources(env.HOOKRAIL_SOURCES, env);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length > 0) throw new ConfigError(configErrorMessage(problems), problems);
  return config!;
}
