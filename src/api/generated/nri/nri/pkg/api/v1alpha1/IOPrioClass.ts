// Original file: proto/nri/api.proto

export const IOPrioClass = {
  IOPRIO_CLASS_NONE: 'IOPRIO_CLASS_NONE',
  IOPRIO_CLASS_RT: 'IOPRIO_CLASS_RT',
  IOPRIO_CLASS_BE: 'IOPRIO_CLASS_BE',
  IOPRIO_CLASS_IDLE: 'IOPRIO_CLASS_IDLE',
} as const;

export type IOPrioClass =
  | 'IOPRIO_CLASS_NONE'
  | 0
  | 'IOPRIO_CLASS_RT'
  | 1
  | 'IOPRIO_CLASS_BE'
  | 2
  | 'IOPRIO_CLASS_IDLE'
  | 3

export type IOPrioClass__Output = typeof IOPrioClass[keyof typeof IOPrioClass]
