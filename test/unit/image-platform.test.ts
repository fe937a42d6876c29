import { describe, expect, it } from 'vitest';
import type { Descriptor } from '../../src/runtime/image/manifest.js';
import { manifestKind } from '../../src/runtime/image/manifest.js';
import { hostPlatform, platformMatches, selectManifest } from '../../src/runtime/image/platform.js';

const d = (architecture: string, variant?: string, os = 'linux'): Descriptor => ({
  mediaType: 'application/vnd.oci.image.manifest.v1+json',
  digest: `sha256:${architecture}${variant ?? ''}${os}`,
  size: 1,
  platform: { os, architecture, variant },
});

describe('platform selection', () => {
  it('maps the host to linux/amd64 on x64', () => {
    if (process.arch === 'x64') expect(hostPlatform()).toEqual({ os: 'linux', architecture: 'amd64' });
  });

  it('picks the matching os/arch', () => {
    const list = [d('arm64', 'v8'), d('amd64'), d('amd64', undefined, 'windows')];
    expect(selectManifest(list, { os: 'linux', architecture: 'amd64' })).toBe(list[1]);
  });

  it('treats arm64 with and without v8 as the same', () => {
    expect(platformMatches({ os: 'linux', architecture: 'arm64', variant: 'v8' }, { os: 'linux', architecture: 'arm64' })).toBe(true);
  });

  it('prefers the exact arm variant and accepts older ones', () => {
    const list = [d('arm', 'v6'), d('arm', 'v7')];
    expect(selectManifest(list, { os: 'linux', architecture: 'arm', variant: 'v7' })).toBe(list[1]);
    expect(selectManifest([d('arm', 'v6')], { os: 'linux', architecture: 'arm', variant: 'v7' })).toBeDefined();
    expect(selectManifest([d('arm', 'v7')], { os: 'linux', architecture: 'arm', variant: 'v6' })).toBeUndefined();
  });

  it('returns undefined when nothing matches', () => {
    expect(selectManifest([d('s390x')], { os: 'linux', architecture: 'amd64' })).toBeUndefined();
  });
});

describe('manifest kinds', () => {
  it('rejects schema 1 clearly', () => {
    const body = Buffer.from(JSON.stringify({ schemaVersion: 1, fsLayers: [] }));
    expect(() => manifestKind('application/vnd.docker.distribution.manifest.v1+prettyjws', body)).toThrow(/schema 1 is not supported/);
  });

  it('classifies indexes and manifests by media type or shape', () => {
    expect(manifestKind('application/vnd.docker.distribution.manifest.list.v2+json', Buffer.from('{"manifests":[]}'))).toBe('index');
    expect(manifestKind('', Buffer.from('{"schemaVersion":2,"layers":[],"config":{}}'))).toBe('manifest');
  });
});
