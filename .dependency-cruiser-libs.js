/**
 * Cycles between libraries (`npm run lint:deps`, after .dependency-cruiser.js): library A imports B while B,
 * through any of its files, imports A. Counted on production code only: a library's tests import @app/testing,
 * which imports the library under test, and that arrow is the point of a shared fixture library.
 */
const base = require('./.dependency-cruiser.js');

module.exports = {
  forbidden: [
    {
      name: 'no-circular-between-libs',
      comment: 'Two libraries that import each other are one library: break the cycle, or merge them.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^libs/[^/]+/src/?$' },
      to: { path: '^libs/[^/]+/src/?$', circular: true },
    },
  ],
  options: {
    ...base.options,
    includeOnly: '^libs/',
    exclude: { path: ['(^|/)node_modules/', '\\.(spec|int-spec|e2e-spec)\\.ts$', '/testing/', '^libs/testing/'] },
  },
};
