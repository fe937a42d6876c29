// NRI events and the subscription mask plugins return from Configure: event
// number N is bit N-1 of a 32-bit mask; a zero mask means "everything".

export const EVENTS = [
  'UNKNOWN',
  'RUN_POD_SANDBOX',
  'STOP_POD_SANDBOX',
  'REMOVE_POD_SANDBOX',
  'CREATE_CONTAINER',
  'POST_CREATE_CONTAINER',
  'START_CONTAINER',
  'POST_START_CONTAINER',
  'UPDATE_CONTAINER',
  'POST_UPDATE_CONTAINER',
  'STOP_CONTAINER',
  'REMOVE_CONTAINER',
  'UPDATE_POD_SANDBOX',
  'POST_UPDATE_POD_SANDBOX',
  'VALIDATE_CONTAINER_ADJUSTMENT',
] as const;
export type EventName = Exclude<(typeof EVENTS)[number], 'UNKNOWN'>;

export const EVENT_LAST = EVENTS.length; // 15
export const VALID_EVENTS = (1 << (EVENT_LAST - 1)) - 1;

/** The RPC (of the newest API) that delivers each event. */
export const EVENT_METHODS: Record<EventName, string> = {
  RUN_POD_SANDBOX: 'RunPodSandbox',
  STOP_POD_SANDBOX: 'StopPodSandbox',
  REMOVE_POD_SANDBOX: 'RemovePodSandbox',
  CREATE_CONTAINER: 'CreateContainer',
  POST_CREATE_CONTAINER: 'PostCreateContainer',
  START_CONTAINER: 'StartContainer',
  POST_START_CONTAINER: 'PostStartContainer',
  UPDATE_CONTAINER: 'UpdateContainer',
  POST_UPDATE_CONTAINER: 'PostUpdateContainer',
  STOP_CONTAINER: 'StopContainer',
  REMOVE_CONTAINER: 'RemoveContainer',
  UPDATE_POD_SANDBOX: 'UpdatePodSandbox',
  POST_UPDATE_POD_SANDBOX: 'PostUpdatePodSandbox',
  VALIDATE_CONTAINER_ADJUSTMENT: 'ValidateContainerAdjustment',
};

export function eventNumber(name: EventName): number {
  return EVENTS.indexOf(name);
}

export function eventBit(name: EventName): number {
  return 1 << (eventNumber(name) - 1);
}

export function maskOf(names: Iterable<EventName>): number {
  let mask = 0;
  for (const n of names) mask |= eventBit(n);
  return mask;
}

export function isSet(mask: number, name: EventName): boolean {
  return (mask & eventBit(name)) !== 0;
}

export function eventsIn(mask: number): EventName[] {
  return (EVENTS.slice(1) as EventName[]).filter((n) => isSet(mask, n));
}

/** Human-friendly names (RunPodSandbox, ...) for listings. */
export function prettyEvents(mask: number): string[] {
  return eventsIn(mask).map((n) => EVENT_METHODS[n]);
}
