#!/usr/bin/env node
// Runs the compiled JavaScript of a TypeScript entry, as the Docker image does: `node scripts/run-built.js
// apps/ingress/src/main.ts` runs dist/apps/ingress/src/main.js in this process (with this process's node flags).
// The tree is built first (scripts/build.js, as `npm run build`) when dist/ is missing or older than a source:
// any .ts of apps/, libs/ or scripts/ that the build compiles, tsconfig*.json, package-lock.json. Plain JavaScript
// on purpose: it must start without a TypeScript loader. Several starts at once build once (a lock directory).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { build: compile } = require('./build.js');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');
const stamp = path.join(dist, '.built');
const lock = path.join(root, '.build-lock');
const SOURCES = ['apps', 'libs', 'scripts'];
const FILES = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
/** What tsconfig.build.json leaves out: tests and their fixtures. */
const NOT_BUILT = /(\.spec\.ts|\.int-spec\.ts)$|[/\\]testing[/\\]|^libs[/\\]testing[/\\]/;

/** The newest modification time of what the build reads, in ms. */
function newestSource() {
  let newest = 0;
  const visit = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') visit(full);
      } else if (entry.name.endsWith('.ts') && !NOT_BUILT.test(path.relative(root, full))) {
        newest = Math.max(newest, fs.statSync(full).mtimeMs);
      }
    }
  };
  for (const dir of SOURCES) visit(path.join(root, dir));
  for (const file of FILES) newest = Math.max(newest, fs.statSync(path.join(root, file)).mtimeMs);
  return newest;
}

function builtAt() {
  try {
    return fs.statSync(stamp).mtimeMs;
  } catch {
    return 0;
  }
}

function stale() {
  return builtAt() < newestSource();
}

/** Waits until another start's build is over (its lock gone, or older than ten minutes: a killed build). */
function waitForOtherBuild() {
  const deadline = Date.now() + 600_000;
  for (;;) {
    try {
      if (Date.now() - fs.statSync(lock).mtimeMs > 600_000) fs.rmSync(lock, { recursive: true, force: true });
    } catch {
      return;
    }
    if (Date.now() > deadline) return;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}

function build() {
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      process.stderr.write('hookrail: waiting for another start to finish building\n');
      waitForOtherBuild();
      if (!stale()) return;
    }
  }
  try {
    const started = Date.now();
    process.stderr.write('hookrail: building the apps (dist/ is missing or older than the sources)…\n');
    if (!compile()) {
      process.stderr.write('hookrail: the build failed (its errors are above); nothing was started\n');
      process.exit(1);
    }
    process.stderr.write(`hookrail: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Builds when dist/ is missing or older than a source; does nothing otherwise. */
function buildIfStale() {
  if (stale()) build();
}

/** Builds if needed; returns the compiled path of a TypeScript entry given relative to the repository. */
function ensureBuilt(entry) {
  buildIfStale();
  const compiled = path.join(dist, entry.replace(/\.ts$/, '.js'));
  if (!fs.existsSync(compiled)) {
    process.stderr.write(`hookrail: ${entry} has no compiled file (${path.relative(root, compiled)})\n`);
    process.exit(1);
  }
  return compiled;
}

module.exports = { buildIfStale, ensureBuilt };

if (require.main === module) {
  const entry = process.argv[2];
  if (!entry) {
    process.stderr.write('usage: node scripts/run-built.js <entry.ts> [args…]\n');
    process.exit(2);
  }
  const compiled = ensureBuilt(entry);
  // The entry sees its own arguments as if it had been started directly.
  process.argv.splice(1, 2, compiled);
  require(compiled);
}
