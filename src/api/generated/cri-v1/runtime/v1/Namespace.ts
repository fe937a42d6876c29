// Original file: proto/runtime/v1/api.proto

import type { NamespaceOption as _runtime_v1_NamespaceOption, NamespaceOption__Output as _runtime_v1_NamespaceOption__Output } from '../../runtime/v1/NamespaceOption.js';

export interface Namespace {
  'options'?: (_runtime_v1_NamespaceOption | null);
}

export interface Namespace__Output {
  'options': (_runtime_v1_NamespaceOption__Output | null);
}
