#!/usr/bin/env node
// Loads the CLI bundle through a V8 code cache: compiling JavaScript is most
// of a CLI call's start-up, and Node 20 has no compile cache of its own. The
// cache sits next to the bundle; V8 rejects it when the bundle or Node
// changes, and it is then written again. Where it cannot be written (a
// read-only install, a non-root user) the bundle is simply compiled each time.
//
// CommonJS, so that a process started on this file never loads Node's ES
// module loader (about 2 MB of RSS): `isulats daemon` re-executes itself on it
// (src/daemon/process-tuning.ts). bin/isulats, the command npm links, loads it.
// What only the full CLI needs (node:vm, node:module) is required in runFull.
'use strict';

// The daemon after its re-exec runs its own bundle: its command line was parsed
// before (src/daemon/run-daemon.ts), so it needs none of the CLI (oclif, the
// other commands), which would otherwise stay in its memory.
const daemonRun = process.env.ISULATS_DAEMON_RUN !== undefined && process.argv.includes('daemon');
const argv = process.argv.slice(2);

// `version`, `pods`, `ps` and the inspect verbs against a remote socket first try a
// small bundle of their own (src/fast/fast-cli.ts) that costs about what `node -e 0`
// does; it declines anything it does not handle exactly as the full CLI, which then
// runs (fastThenFull; ISULATS_NO_FAST_PATH=1 and ISULATS_FAST_PATH=require are for tests).
let fastThenFull;
if (!daemonRun) {
  try {
    ({ fastThenFull } = require('../dist/isulats-fast.cjs'));
  } catch {}
}
if (fastThenFull) fastThenFull(argv, runFull);
else runFull();

function runFull() {
  const { readFileSync, renameSync, writeFileSync } = require('node:fs');
  const { Module, createRequire } = require('node:module');
  const { dirname, join } = require('node:path');
  const vm = require('node:vm');
  const file = join(__dirname, daemonRun ? '../dist/isulats-daemon.cjs' : '../dist/isulats.cjs');
  const cacheFile = `${file}.v8cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {}
  const script = new vm.Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
  // V8 takes cached data only from a process with the same V8 flags: only the
  // plain `isulats ...` calls write it (the daemon runs with flags of its own).
  const writeCache = (!cachedData || script.cachedDataRejected) && process.execArgv.length === 0;
  cachedData = undefined; // not kept for the life of a long-running process (the daemon)
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, createRequire(file), mod, file, dirname(file));
  if (writeCache) {
    // After the command ran, so the functions it compiled are in the cache too.
    process.once('exit', () => {
      try {
        const tmp = `${cacheFile}.${process.pid}`;
        writeFileSync(tmp, script.createCachedData());
        renameSync(tmp, cacheFile);
      } catch {}
    });
  }
  mod.exports.main(argv);
}
