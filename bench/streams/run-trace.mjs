#!/usr/bin/env node
// Runs bench/streams/tty-trace.ts: where one TTY exec's wall time goes (strace on the runtime and the client).
// Usage: node bench/streams/run-trace.mjs [ROUNDS] [TARGETS]   (needs root, strace, the Go client)
import { runBundled } from '../run-bundled.mjs';

process.exitCode = await runBundled('bench/streams/tty-trace.ts', process.argv.slice(2));
