// How inspect, inspectp and inspecti word a failure, as crictl 1.34 does: shared by the
// commands and the CLI's fast path (src/fast/fast-inspect.ts), which must print the same line.

export const containerStatusError = (input: string): string => `getting the status of the container "${input}"`;
export const podStatusError = (input: string): string => `getting the pod sandbox status for "${input}"`;
export const noSuchImage = (id: string): string => `no such image "${id}" present`;

