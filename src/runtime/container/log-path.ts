// Where a container's CRI log goes. As containerd: filepath.Join(pod log_directory, log_path), so
// an absolute log_path lands under the pod's log directory too, and `..` is cleaned as Join
// cleans it. In a pod without a log directory containerd keeps no log; we keep it under the
// container's own dir (so `logs` works), where neither an absolute path nor `..` can lead out.
import { join, normalize } from 'node:path';

/** The log file of a container whose config asks for `logPath`, or '' for none. */
export function containerLogPath(logDirectory: string, logPath: string, containerDir: string): string {
  if (!logPath) return '';
  if (logDirectory) return join(logDirectory, logPath);
  return join(containerDir, normalize(`/${logPath}`));
}
