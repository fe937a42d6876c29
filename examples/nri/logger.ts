// Example NRI plugin: logs every pod and container event it receives, one
// JSON line per event, to the file named by `logFile` in its configuration
// (YAML or JSON, from the runtime's plugin config dir) or to stderr.
import { appendFileSync } from 'node:fs';
import { parse } from 'yaml';
import { isMain, runPlugin, type ConfigureInfo, type Plugin, type nri } from '../../src/nri/sdk/index.js';

export class EventLogger implements Plugin {
  private logFile: string | undefined;

  constructor(logFile?: string) {
    this.logFile = logFile;
  }

  private write(event: string, pod?: nri.PodSandbox | null, container?: nri.Container | null): void {
    const line = JSON.stringify({ event, pod: pod?.name, namespace: pod?.namespace, container: container?.name, id: container?.id ?? pod?.id });
    if (this.logFile) appendFileSync(this.logFile, `${line}\n`);
    else process.stderr.write(`${line}\n`);
  }

  configure(info: ConfigureInfo): void {
    const cfg = info.config ? (parse(info.config) as { logFile?: string } | null) : null;
    if (cfg?.logFile) this.logFile = cfg.logFile;
    this.write(`Configure ${info.runtimeName} ${info.runtimeVersion}`);
  }

  synchronize(pods: nri.PodSandbox[], containers: nri.Container[]): void {
    this.write(`Synchronize pods=${pods.length} containers=${containers.length}`);
  }

  shutdown(): void {
    this.write('Shutdown');
  }

  runPodSandbox(pod: nri.PodSandbox): void {
    this.write('RunPodSandbox', pod);
  }
  stopPodSandbox(pod: nri.PodSandbox): void {
    this.write('StopPodSandbox', pod);
  }
  removePodSandbox(pod: nri.PodSandbox): void {
    this.write('RemovePodSandbox', pod);
  }
  createContainer(pod: nri.PodSandbox, container: nri.Container): void {
    this.write('CreateContainer', pod, container);
  }
  postCreateContainer(pod: nri.PodSandbox, container: nri.Container): void {
    this.write('PostCreateContainer', pod, container);
  }
  startContainer(pod: nri.PodSandbox, container: nri.Container): void {
    this.write('StartContainer', pod, container);
  }
  postStartContainer(pod: nri.PodSandbox, container: nri.Container): void {
    this.write('PostStartContainer', pod, container);
  }
  updateContainer(pod: nri.PodSandbox, container: nri.Container): void {
    this.write('UpdateContainer', pod, container);
  }
  postUpdateContainer(pod: nri.PodSandbox, container: nri.Container): void {
    this.write('PostUpdateContainer', pod, container);
  }
  stopContainer(pod: nri.PodSandbox, container: nri.Container): void {
    this.write('StopContainer', pod, container);
  }
  removeContainer(pod: nri.PodSandbox, container: nri.Container): void {
    this.write('RemoveContainer', pod, container);
  }
}

if (isMain(import.meta.url)) void runPlugin(new EventLogger(process.env.NRI_LOGGER_FILE), { name: 'logger', idx: '10' });
