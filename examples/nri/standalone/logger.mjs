#!/usr/bin/env node
// An NRI plugin as a plain ES module on an installed isulats (npm install isulats, or -g):
// logs every pod and container event it receives, one JSON line each, to the file named
// by `logFile` in its JSON configuration, or to stderr. Run it against a runtime's NRI socket:
//   node logger.mjs --socket /var/run/nri/nri.sock --idx 10 --name logger
import { appendFileSync } from 'node:fs';
import { runPlugin } from 'isulats/nri';

let logFile;
const write = (event, pod, container) => {
  const line = JSON.stringify({ event, pod: pod?.name, namespace: pod?.namespace, container: container?.name, id: container?.id ?? pod?.id });
  if (logFile) appendFileSync(logFile, `${line}\n`);
  else process.stderr.write(`${line}\n`);
};

await runPlugin({
  configure(info) {
    if (info.config) logFile = JSON.parse(info.config).logFile;
    write(`Configure ${info.runtimeName} ${info.runtimeVersion}`);
  },
  synchronize(pods, containers) {
    write(`Synchronize pods=${pods.length} containers=${containers.length}`);
  },
  runPodSandbox: (pod) => write('RunPodSandbox', pod),
  stopPodSandbox: (pod) => write('StopPodSandbox', pod),
  removePodSandbox: (pod) => write('RemovePodSandbox', pod),
  createContainer: (pod, container) => write('CreateContainer', pod, container),
  startContainer: (pod, container) => write('StartContainer', pod, container),
  stopContainer: (pod, container) => write('StopContainer', pod, container),
  removeContainer: (pod, container) => write('RemoveContainer', pod, container),
}, { name: 'logger', idx: '10' });
