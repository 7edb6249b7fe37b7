import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Lists the docs keep of things the code defines, checked against the code so that a new one is not left out: every
 * route and behaviour key of the development providers (docs/development.md), every event name of a saga's history
 * (docs/sagas.md).
 */
const root = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** The development providers' servers: apps/consumers/src/<group>/dev-<kind>/*.server.ts and their shared base. */
function devProviderSources(): string[] {
  const apps = path.join('apps', 'consumers', 'src');
  const servers = readdirSync(path.join(root, apps), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((group) =>
      readdirSync(path.join(root, apps, group.name), { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && entry.name.startsWith('dev-'))
        .flatMap((dir) =>
          readdirSync(path.join(root, apps, group.name, dir.name))
            .filter((file) => file.endsWith('.server.ts'))
            .map((file) => path.join(apps, group.name, dir.name, file)),
        ),
    );
  return [...servers, path.join('libs', 'dev-providers', 'src', 'dev-provider.server.ts')].map(read);
}

describe('the lists the docs keep of what the code defines', () => {
  it('docs/development.md names every route and behaviour key of the development providers', () => {
    const sources = devProviderSources();
    const routes = sources.flatMap((source) => [...source.matchAll(/'(GET|POST) (\/[^' ]+)'/g)].map((m) => m[2]));
    const keys = sources.flatMap((source) =>
      [...source.matchAll(/interface \w*Behaviour\b[^{]*\{([^}]*)\}/g)].flatMap((m) =>
        [...m[1].matchAll(/^\s+(\w+)\??:/gm)].map((field) => field[1]),
      ),
    );
    expect(routes.length).toBeGreaterThan(10);
    expect(keys).toEqual(expect.arrayContaining(['failNext', 'declineRate', 'rejectRecipients']));
    const page = read('docs/development.md');
    expect(routes.filter((route) => !page.includes(route))).toEqual([]);
    expect(keys.filter((key) => !page.includes(`\`${key}\``))).toEqual([]);
  });

  it("docs/sagas.md names every event of a saga's history", () => {
    const union = /export type SagaEventName =([^;]+);/.exec(read('libs/saga/src/saga-transitions.ts'))![1];
    const operator = /event: ('[^,]+),/.exec(read('libs/saga/src/operator-step.ts'))![1];
    const events = [...`${union}|${operator}`.matchAll(/'([a-z-]+)'/g)].map((m) => m[1]);
    expect(events).toEqual(expect.arrayContaining(['started', 'timed-out', 'retry-requested']));
    const page = read('docs/sagas.md');
    expect(events.filter((event) => !page.includes(`| \`${event}\``) && !page.includes(`\`${event}\` |`))).toEqual([]);
  });
});
