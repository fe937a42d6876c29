// Original file: proto/runtime/v1/api.proto

import type { RuntimeHandlerFeatures as _runtime_v1_RuntimeHandlerFeatures, RuntimeHandlerFeatures__Output as _runtime_v1_RuntimeHandlerFeatures__Output } from '../../runtime/v1/RuntimeHandlerFeatures.js';

export interface RuntimeHandler {
  'name'?: (string);
  'features'?: (_runtime_v1_RuntimeHandlerFeatures | null);
}

export interface RuntimeHandler__Output {
  'name': (string);
  'features': (_runtime_v1_RuntimeHandlerFeatures__Output | null);
}
