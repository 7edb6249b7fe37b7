#!/usr/bin/env node
// npm run build — compiles apps/, libs/ and scripts/ into dist/ as the Docker image runs them (tsc with
// tsconfig.build.json, then tsc-alias for the @app/* paths), and dates dist/.built at the start of the build:
// scripts/run-built.js builds again when a source is newer than that.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const stamp = path.join(root, 'dist', '.built');

/** Builds; returns false when tsc or tsc-alias failed (their errors are on stderr). */
function build() {
  const started = new Date();
  const bin = (name) => path.join(root, 'node_modules', '.bin', name);
  for (const [tool, args] of [
    ['tsc', ['-p', 'tsconfig.build.json']],
    ['tsc-alias', ['-p', 'tsconfig.build.json']],
  ]) {
    if (spawnSync(bin(tool), args, { cwd: root, stdio: 'inherit' }).status !== 0) return false;
  }
  fs.writeFileSync(stamp, '');
  // Dated when the build began: a source saved during the build makes the next start build again.
  fs.utimesSync(stamp, started, started);
  return true;
}

module.exports = { build };

if (require.main === module) process.exit(build() ? 0 : 1);
