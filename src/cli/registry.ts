// Every command id and where its code lives. Loading is lazy: a call imports
// only the one command it runs. Multi-word ids ("nri plugins") are topics.
import type { CommandSpec } from './spec.js';

type Loader = () => Promise<{ default: CommandSpec }>;

export const COMMANDS: Record<string, Loader> = {
  version: () => import('../commands/version.js'),
  info: () => import('../commands/info.js'),
  runp: () => import('../commands/runp.js'),
  stopp: () => import('../commands/stopp.js'),
  rmp: () => import('../commands/rmp.js'),
  pods: () => import('../commands/pods.js'),
  inspectp: () => import('../commands/inspectp.js'),
  create: () => import('../commands/create.js'),
  start: () => import('../commands/start.js'),
  stop: () => import('../commands/stop.js'),
  rm: () => import('../commands/rm.js'),
  ps: () => import('../commands/ps.js'),
  inspect: () => import('../commands/inspect.js'),
  exec: () => import('../commands/exec.js'),
  attach: () => import('../commands/attach.js'),
  logs: () => import('../commands/logs.js'),
  images: () => import('../commands/images.js'),
  inspecti: () => import('../commands/inspecti.js'),
  pull: () => import('../commands/pull.js'),
  rmi: () => import('../commands/rmi.js'),
  imagefsinfo: () => import('../commands/imagefsinfo.js'),
  stats: () => import('../commands/stats.js'),
  statsp: () => import('../commands/statsp.js'),
  metricdescs: () => import('../commands/metricdescs.js'),
  metricsp: () => import('../commands/metricsp.js'),
  update: () => import('../commands/update.js'),
  'port-forward': () => import('../commands/port-forward.js'),
  checkpoint: () => import('../commands/checkpoint.js'),
  restore: () => import('../commands/restore.js'),
  events: () => import('../commands/events.js'),
  config: () => import('../commands/config.js'),
  completion: () => import('../commands/completion.js'),
  debug: () => import('../commands/debug.js'),
  // isula's verbs (embedded engine; the daemon's admin service where it has them)
  run: () => import('../commands/run.js'),
  kill: () => import('../commands/kill.js'),
  wait: () => import('../commands/wait.js'),
  top: () => import('../commands/top.js'),
  pause: () => import('../commands/pause.js'),
  unpause: () => import('../commands/unpause.js'),
  restart: () => import('../commands/restart.js'),
  tag: () => import('../commands/tag.js'),
  load: () => import('../commands/load.js'),
  save: () => import('../commands/save.js'),
  import: () => import('../commands/import.js'),
  login: () => import('../commands/login.js'),
  logout: () => import('../commands/logout.js'),
  daemon: () => import('../commands/daemon.js'),
  // node debugging
  doctor: () => import('../commands/doctor.js'),
  trace: () => import('../commands/trace.js'),
  'nri plugins': () => import('../commands/nri/plugins.js'),
  'nri config': () => import('../commands/nri/config.js'),
};

/** crictl's aliases (image/img for images, ...). */
export const ALIASES: Record<string, string> = {
  image: 'images',
  img: 'images',
  pod: 'pods',
  container: 'ps',
  containers: 'ps',
  event: 'events',
};

/** Finds the command id at the start of argv: the longest registered match (topics first). */
export function findCommand(argv: string[]): { id: string; rest: string[] } | undefined {
  for (let n = Math.min(3, argv.length); n >= 1; n--) {
    const words = argv.slice(0, n);
    if (words.some((w) => w.startsWith('-'))) continue;
    const id = words.join(' ');
    const real = COMMANDS[id] ? id : ALIASES[id];
    if (real && COMMANDS[real]) return { id: real, rest: argv.slice(n) };
  }
  return undefined;
}
