// Original file: proto/nri/api.proto

export const ContainerState = {
  CONTAINER_UNKNOWN: 'CONTAINER_UNKNOWN',
  CONTAINER_CREATED: 'CONTAINER_CREATED',
  CONTAINER_PAUSED: 'CONTAINER_PAUSED',
  CONTAINER_RUNNING: 'CONTAINER_RUNNING',
  CONTAINER_STOPPED: 'CONTAINER_STOPPED',
} as const;

export type ContainerState =
  | 'CONTAINER_UNKNOWN'
  | 0
  | 'CONTAINER_CREATED'
  | 1
  | 'CONTAINER_PAUSED'
  | 2
  | 'CONTAINER_RUNNING'
  | 3
  | 'CONTAINER_STOPPED'
  | 4

export type ContainerState__Output = typeof ContainerState[keyof typeof ContainerState]
