import { runCli } from '../../apps/cli/src/main';

/**
 * `hookrail <args>` run in this process the way bin/hookrail runs it (starting node for each command would dominate a
 * test), against the database at `databaseUrl`: its exit code and what it wrote to stdout and stderr.
 */
export async function hookrailInProcess(
  databaseUrl: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string[]; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    args,
    (text) => out.push(text),
    (text) => err.push(text),
    { ...process.env, DATABASE_URL: databaseUrl, ...env },
  );
  return { code, out, stdout: out.join('\n'), stderr: err.join('\n') };
}
