// CDI (Container Device Interface): spec files, device names, and their edits applied to a container.
export { CdiRegistry, DEFAULT_CDI_SPEC_DIRS, MAX_CDI_SPEC_BYTES, type CdiSnapshot } from './spec-registry.js';
export { injectCdiDevices } from './inject.js';
export { requestedCdiDevices, CDI_ANNOTATION_PREFIX, MAX_CDI_DEVICES_PER_CONTAINER } from './device-requests.js';
export { parseQualifiedName, isQualifiedName } from './qualified-name.js';
