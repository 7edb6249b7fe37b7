/**
 * Import rules (`npm run lint:deps`, part of `npm test`): every arrow points one way. Apps import libraries, never
 * each other; libraries never import apps; a library is imported through its index (`@app/<lib>`), so its files
 * can move without breaking anyone; its TypeORM entities through their own (`@app/<lib>/entities`), so that a
 * process without TypeORM (the relay) can use the library; a few libraries' light part through `@app/<lib>/light`,
 * so that the CLI starts without NestJS; no import cycles; production code never imports test support.
 */
const APP = '^apps/([^/]+)/';
const LIB = '^libs/([^/]+)/';
/** Test files and the fixtures beside them; `libs/testing` is the shared fixture library (`@app/testing`). */
const TEST_SUPPORT = ['\\.(spec|int-spec|e2e-spec)\\.ts$', '/testing/', '^libs/testing/'];
/**
 * Any file of a library but its entries: its index, its entities' index and, in some libraries, its light entry
 * (`@app/<lib>/light`, `src/light.ts`): the part a process that must start fast (the CLI) uses, without NestJS,
 * metrics, Kafka consumers or the event catalogue; the index re-exports it.
 */
const LIB_INTERNALS = '^libs/[^/]+/src/(?!index\\.ts$|entities/index\\.ts$|light\\.ts$)';

module.exports = {
  forbidden: [
    {
      name: 'lib-imports-app',
      comment: 'A library never imports an app (or a script, benchmark or end-to-end test): arrows point apps → libs.',
      severity: 'error',
      from: { path: LIB },
      to: { path: '^(apps|bench|scripts|test)/' },
    },
    {
      name: 'app-imports-other-app',
      comment: 'An app never imports another app; what two apps share belongs in a library.',
      severity: 'error',
      from: { path: APP },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'ingress-imports-operator-plane',
      comment:
        'The ingress answers senders and producers only: the operator plane (the admin app) owns replays, purges, ' +
        'the audit, event trails, issuing tokens, outbound endpoint checks and every Kafka client. Authenticating a ' +
        'bearer (libs/access) is not the operator plane: the status URL checks tokens too.',
      severity: 'error',
      from: { path: '^apps/ingress/' },
      to: { path: '^libs/(audit|dead-letters|trail|ssrf-guard|kafka)/' },
    },
    {
      name: 'app-imports-outside',
      comment: 'An app imports libraries and its own files only (no scripts, benchmarks or end-to-end tests).',
      severity: 'error',
      from: { path: APP },
      to: { path: '^(bench|scripts|test)/' },
    },
    {
      name: 'lib-deep-import',
      comment: 'Another library is imported through its index (@app/<lib>), never by the path of one of its files.',
      severity: 'error',
      from: { path: LIB },
      to: { path: LIB_INTERNALS, pathNot: '^libs/$1/' },
    },
    {
      name: 'deep-import-into-lib',
      comment: 'Apps, scripts, benchmarks and tests import a library through its index (@app/<lib>).',
      severity: 'error',
      from: { path: '^(apps|bench|scripts|test)/' },
      to: { path: LIB_INTERNALS },
    },
    {
      name: 'production-imports-test-support',
      comment: 'Production code never imports a test, a fixture or @app/testing.',
      severity: 'error',
      from: { path: '^(apps|libs)/', pathNot: TEST_SUPPORT },
      to: { path: TEST_SUPPORT },
    },
    {
      name: 'no-circular',
      comment:
        'No import cycles: within a library a cycle leaves a module half-loaded; between libraries it ties them.',
      severity: 'error',
      from: { path: '^(apps|libs|bench|scripts|test)/' },
      to: { circular: true },
    },
  ],
  options: {
    // Imports that do not resolve are the compiler's to report (npm run typecheck).
    includeOnly: '^(apps|libs|bench|scripts|test)/',
    exclude: { path: '(^|/)(node_modules|dist|\\.cache|\\.kafka)/' },
    // Type-only imports count too: an arrow is an arrow, even when the compiler erases it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
