// Builders for what plugins answer with: a ContainerAdjustment (input form)
// and ContainerUpdates. Removal of a keyed item is the key with a '-' prefix.
import type * as nri from '../../api/nri.js';

type Linux = nri.LinuxContainerAdjustmentIn;

export class AdjustmentBuilder {
  private readonly adj: nri.ContainerAdjustmentIn = {};

  private linux(): Linux {
    return (this.adj.linux ??= {});
  }

  private resources(): nri.LinuxResourcesIn {
    return (this.linux().resources ??= {});
  }

  addAnnotation(key: string, value: string): this {
    (this.adj.annotations ??= {})[key] = value;
    return this;
  }
  removeAnnotation(key: string): this {
    (this.adj.annotations ??= {})[`-${key}`] = '';
    return this;
  }
  addMount(mount: nri.MountIn): this {
    (this.adj.mounts ??= []).push(mount);
    return this;
  }
  removeMount(destination: string): this {
    (this.adj.mounts ??= []).push({ destination: `-${destination}` });
    return this;
  }
  addEnv(key: string, value: string): this {
    (this.adj.env ??= []).push({ key, value });
    return this;
  }
  removeEnv(key: string): this {
    (this.adj.env ??= []).push({ key: `-${key}`, value: '' });
    return this;
  }
  setArgs(args: string[]): this {
    this.adj.args = [...args];
    return this;
  }
  addHooks(hooks: nri.HooksIn): this {
    const h = (this.adj.hooks ??= {}) as Record<string, nri.HookIn[]>;
    for (const [k, v] of Object.entries(hooks) as [string, nri.HookIn[]][]) h[k] = [...(h[k] ?? []), ...v];
    return this;
  }
  addDevice(device: nri.LinuxDeviceIn): this {
    (this.linux().devices ??= []).push(device);
    return this;
  }
  removeDevice(path: string): this {
    (this.linux().devices ??= []).push({ path: `-${path}` });
    return this;
  }
  addCDIDevice(name: string): this {
    (this.adj.CDIDevices ??= []).push({ name });
    return this;
  }
  addRlimit(type: string, hard: number | string, soft: number | string): this {
    (this.adj.rlimits ??= []).push({ type, hard: String(hard), soft: String(soft) });
    return this;
  }
  setMemoryLimit(bytes: number | string): this {
    (this.resources().memory ??= {}).limit = { value: String(bytes) };
    return this;
  }
  setCPUShares(shares: number | string): this {
    (this.resources().cpu ??= {}).shares = { value: String(shares) };
    return this;
  }
  setCPUQuota(quota: number | string, period?: number | string): this {
    const cpu = (this.resources().cpu ??= {});
    cpu.quota = { value: String(quota) };
    if (period !== undefined) cpu.period = { value: String(period) };
    return this;
  }
  setCPUSetCPUs(cpus: string): this {
    (this.resources().cpu ??= {}).cpus = cpus;
    return this;
  }
  setPidsLimit(limit: number | string): this {
    this.resources().pids = { limit: String(limit) };
    return this;
  }
  setCgroupsPath(path: string): this {
    this.linux().cgroupsPath = path;
    return this;
  }
  setOomScoreAdj(value: number): this {
    this.linux().oomScoreAdj = { value: String(value) };
    return this;
  }
  setIOPriority(cls: nri.IOPrioClassIn, priority: number): this {
    this.linux().ioPriority = { class: cls, priority };
    return this;
  }
  setSeccompPolicy(policy: nri.LinuxSeccompIn): this {
    this.linux().seccompPolicy = policy;
    return this;
  }
  addNamespace(type: string, path: string): this {
    (this.linux().namespaces ??= []).push({ type, path });
    return this;
  }
  removeNamespace(type: string): this {
    (this.linux().namespaces ??= []).push({ type: `-${type}` });
    return this;
  }
  addSysctl(key: string, value: string): this {
    (this.linux().sysctl ??= {})[key] = value;
    return this;
  }

  build(): nri.ContainerAdjustmentIn {
    return this.adj;
  }
}

export function adjustment(): AdjustmentBuilder {
  return new AdjustmentBuilder();
}
