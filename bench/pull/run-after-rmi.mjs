#!/usr/bin/env node
// Runs bench/pull/after-rmi.ts (PullImage right after RemoveImage, isulats daemon next to containerd 1.6).
import { runBundled } from '../run-bundled.mjs';

process.exitCode = await runBundled('bench/pull/after-rmi.ts', process.argv.slice(2));
