import { describe, expect, it } from 'vitest';
import { kernelHasMountSetattr, parseRuntimeFeatures } from '../../src/runtime/oci/runtime-features.js';

describe('parseRuntimeFeatures (`<runtime> features` output)', () => {
  it('finds rro among the mount options (runc 1.1)', () => {
    const runc = JSON.stringify({ ociVersionMin: '1.0.0', ociVersionMax: '1.0.2-dev', mountOptions: ['bind', 'ro', 'rro', 'rrw'] });
    expect(parseRuntimeFeatures(runc)).toEqual({ recursiveReadOnlyMounts: true });
  });

  it.each([
    ['mount options without rro', JSON.stringify({ mountOptions: ['bind', 'ro'] })],
    ['no mount options', JSON.stringify({ ociVersionMin: '1.0.0' })],
    ['not JSON (crun 1.8: "unknown command features")', 'unknown command features'],
    ['JSON null', 'null'],
    ['mount options not a list', JSON.stringify({ mountOptions: 'rro' })],
  ])('no recursive read-only mounts for %s', (_name, output) => {
    expect(parseRuntimeFeatures(output)).toEqual({ recursiveReadOnlyMounts: false });
  });
});

describe('kernelHasMountSetattr (rro needs mount_setattr, Linux 5.12)', () => {
  it.each([
    ['6.1.0-18-amd64', true], ['5.12.0', true], ['5.15.0-91-generic', true], ['6.18.44-fc-v1272', true],
    ['5.11.22', false], ['5.4.0-150-generic', false], ['4.19.0', false], ['garbage', false],
  ])('%s: %s', (kernel, has) => {
    expect(kernelHasMountSetattr(kernel)).toBe(has);
  });
});
