// What a CRI call concerns, for its trace line: the pod/container/image ids
// and names found in the request and the response. Pure; the messages are
// the decoded forms (camelCase, as src/api/proto.ts decodes them).

export interface CallSubjects {
  pod?: string;
  container?: string;
  /** `namespace/name` of a new pod, or a new container's name. */
  name?: string;
  image?: string;
  /** Items in a list answer (or streamed items). */
  count?: number;
}

type Msg = Record<string, any> | undefined;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** List answers name their repeated field differently per method. */
const LIST_FIELDS = ['items', 'containers', 'images', 'stats', 'podSandboxes', 'containerStats', 'podSandboxStats', 'podMetrics', 'podSandboxMetrics', 'descriptors'];

export function callSubjects(method: string, request: Msg, response: Msg): CallSubjects {
  const s: CallSubjects = {};
  const rq = request ?? {};
  const rs = response ?? {};
  const filter = rq.filter ?? {};
  // A pod list's (or pod stats list's) filter id is a pod id; a container list's, a container id.
  const podFilter = /PodSandbox/.test(method) && !/Container/.test(method);
  s.pod = str(rq.podSandboxId) ?? str(rs.podSandboxId) ?? str(filter.podSandboxId) ?? str(rq.podId) ?? (podFilter ? str(filter.id) : undefined);
  s.container = str(rq.containerId) ?? str(rs.containerId) ?? (podFilter ? undefined : str(filter.id));
  const meta = rq.config?.metadata;
  if (meta && str(meta.name)) s.name = str(meta.namespace) ? `${meta.namespace}/${meta.name}` : meta.name;
  s.image = str(rq.image?.image) ?? str(rq.config?.image?.image) ?? str(rs.imageRef) ?? str(filter.image?.image);
  for (const f of LIST_FIELDS) {
    if (Array.isArray(rs[f])) {
      s.count = rs[f].length;
      break;
    }
  }
  // The admin service's JSON: {"args": [...]}, ids and image references as the first arguments.
  if (Array.isArray(rq.args) && rq.args.length > 0 && typeof rq.args[0] === 'string') s.container ??= rq.args[0];
  for (const k of Object.keys(s) as Array<keyof CallSubjects>) if (s[k] === undefined) delete s[k];
  return s;
}
