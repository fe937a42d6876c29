// Original file: proto/runtime/v1/api.proto

import type { MountPropagation as _runtime_v1_MountPropagation, MountPropagation__Output as _runtime_v1_MountPropagation__Output } from '../../runtime/v1/MountPropagation.js';
import type { IDMapping as _runtime_v1_IDMapping, IDMapping__Output as _runtime_v1_IDMapping__Output } from '../../runtime/v1/IDMapping.js';
import type { ImageSpec as _runtime_v1_ImageSpec, ImageSpec__Output as _runtime_v1_ImageSpec__Output } from '../../runtime/v1/ImageSpec.js';

export interface Mount {
  'containerPath'?: (string);
  'hostPath'?: (string);
  'readonly'?: (boolean);
  'selinuxRelabel'?: (boolean);
  'propagation'?: (_runtime_v1_MountPropagation);
  'uidMappings'?: (_runtime_v1_IDMapping)[];
  'gidMappings'?: (_runtime_v1_IDMapping)[];
  'recursiveReadOnly'?: (boolean);
  'image'?: (_runtime_v1_ImageSpec | null);
  'imageSubPath'?: (string);
  'mountOptions'?: (string)[];
}

export interface Mount__Output {
  'containerPath': (string);
  'hostPath': (string);
  'readonly': (boolean);
  'selinuxRelabel': (boolean);
  'propagation': (_runtime_v1_MountPropagation__Output);
  'uidMappings': (_runtime_v1_IDMapping__Output)[];
  'gidMappings': (_runtime_v1_IDMapping__Output)[];
  'recursiveReadOnly': (boolean);
  'image': (_runtime_v1_ImageSpec__Output | null);
  'imageSubPath': (string);
  'mountOptions': (string)[];
}
