// Original file: proto/runtime/v1/api.proto

import type { Metric as _runtime_v1_Metric, Metric__Output as _runtime_v1_Metric__Output } from '../../runtime/v1/Metric.js';

export interface ContainerMetrics {
  'containerId'?: (string);
  'metrics'?: (_runtime_v1_Metric)[];
}

export interface ContainerMetrics__Output {
  'containerId': (string);
  'metrics': (_runtime_v1_Metric__Output)[];
}
