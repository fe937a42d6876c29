#!/usr/bin/env node
// The calls that make a new inode (mkdir, open with O_CREAT, symlink, link, mknod) in `strace -f -T`
// files (runp-burst.ts --strace), grouped by the dir they were made in: count, median and total time.
// Ids (64 hex), pod/container names and temp suffixes are folded so each per-object dir is one row;
// a plain lstat/newfstatat line gives strace's own cost per call beside them.
//   node bench/daemon/strace-inodes.mjs DIR/default-10-0.txt [more files] [--top 25]
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 25;
const files = args.filter((a, i) => !a.startsWith('--') && (topAt < 0 || i !== topAt + 1));

const CREATE = /^(mkdir|mkdirat|symlink|symlinkat|link|linkat|mknod|mknodat|openat|open|creat)\(/;
const fold = (path) =>
  path
    .replace(/[0-9a-f]{64}/g, '<id>')
    .replace(/\/tmp\/ist-[^/]+/, '<tmp>')
    .replace(/k8s_[^/]*/g, '<name>')
    .replace(/\.tmp-\d+-[0-9a-f]+/g, '.tmp-*')
    .replace(/\/\d+(?=\/|$)/g, '/<n>');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
};

const byDir = new Map();
const baseline = [];
for (const file of files) {
  const pending = new Map(); // pid -> the start of an unfinished call
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const m = /^(\d+)\s+[\d.]+\s+(.*)$/.exec(raw);
    if (!m) continue;
    const [, pid, rest] = m;
    let line = rest;
    if (line.endsWith('<unfinished ...>')) {
      pending.set(pid, line.slice(0, -'<unfinished ...>'.length));
      continue;
    }
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(line);
    if (resumed) {
      const start = pending.get(pid);
      pending.delete(pid);
      if (!start) continue;
      line = start + resumed[1];
    }
    const t = /<([\d.]+)>$/.exec(line);
    if (!t) continue;
    const secs = Number(t[1]);
    if (/^(newfstatat|lstat|statx)\(/.test(line)) baseline.push(secs);
    const call = CREATE.exec(line);
    if (!call) continue;
    if (/^open/.test(call[1]) && !/O_CREAT/.test(line)) continue;
    if (/= -1 /.test(line)) continue; // EEXIST and the like: no inode made
    const paths = [...line.matchAll(/"([^"]*)"/g)].map((p) => p[1]);
    const made = /^(symlink|link)/.test(call[1]) ? paths.at(-1) : paths[0];
    if (!made?.startsWith('/')) continue;
    const key = `${call[1].replace(/at$/, '')} ${fold(dirname(made))}`;
    const row = byDir.get(key) ?? [];
    row.push(secs);
    byDir.set(key, row);
  }
}

const rows = [...byDir].map(([key, xs]) => ({ key, n: xs.length, median: median(xs) * 1e3, total: xs.reduce((a, b) => a + b, 0) * 1e3 }));
rows.sort((a, b) => b.total - a.total);
const all = rows.reduce((a, r) => ({ n: a.n + r.n, total: a.total + r.total }), { n: 0, total: 0 });
console.log(`inode-making calls: ${all.n}, ${all.total.toFixed(1)} ms in all; median stat-like call ${(median(baseline) * 1e3).toFixed(3)} ms (strace's own cost)`);
console.log('     n  median ms  total ms  call dir');
for (const r of rows.slice(0, top)) console.log(`${String(r.n).padStart(6)}  ${r.median.toFixed(3).padStart(9)}  ${r.total.toFixed(1).padStart(8)}  ${r.key}`);
