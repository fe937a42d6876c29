// Original file: proto/nri/api.proto

export const LinuxSchedulerPolicy = {
  SCHED_NONE: 'SCHED_NONE',
  SCHED_OTHER: 'SCHED_OTHER',
  SCHED_FIFO: 'SCHED_FIFO',
  SCHED_RR: 'SCHED_RR',
  SCHED_BATCH: 'SCHED_BATCH',
  SCHED_ISO: 'SCHED_ISO',
  SCHED_IDLE: 'SCHED_IDLE',
  SCHED_DEADLINE: 'SCHED_DEADLINE',
} as const;

export type LinuxSchedulerPolicy =
  | 'SCHED_NONE'
  | 0
  | 'SCHED_OTHER'
  | 1
  | 'SCHED_FIFO'
  | 2
  | 'SCHED_RR'
  | 3
  | 'SCHED_BATCH'
  | 4
  | 'SCHED_ISO'
  | 5
  | 'SCHED_IDLE'
  | 6
  | 'SCHED_DEADLINE'
  | 7

export type LinuxSchedulerPolicy__Output = typeof LinuxSchedulerPolicy[keyof typeof LinuxSchedulerPolicy]
