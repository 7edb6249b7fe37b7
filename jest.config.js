/** One jest run: unit specs (*.spec.ts), integration specs on the real Postgres and Kafka (*.int-spec.ts), e2e (test/). */
const { compilerOptions } = require('./tsconfig.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: [
    '<rootDir>/{apps,libs,scripts}/**/*.spec.ts',
    '<rootDir>/{apps,libs,scripts}/**/*.int-spec.ts',
    '<rootDir>/test/**/*.e2e-spec.ts',
    '<rootDir>/test/**/*.spec.ts',
  ],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper,
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  setupFiles: ['reflect-metadata'],
  testTimeout: 60_000,
  maxWorkers: 2,
  detectOpenHandles: false,
};
