import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apparmorChoice, apparmorProfileFor, defaultProfileText, loadedProfiles, DEFAULT_APPARMOR_PROFILE } from '../../src/runtime/container/apparmor-profile.js';
import { ensureApparmorProfile } from '../../src/runtime/container/apparmor-loader.js';

describe('apparmor profile choice (containerd CRI semantics)', () => {
  it.each([
    [undefined, { type: 'RuntimeDefault' }],
    [{}, { type: 'RuntimeDefault' }],
    [{ apparmorProfile: 'runtime/default' }, { type: 'RuntimeDefault' }],
    [{ apparmorProfile: 'docker/default' }, { type: 'RuntimeDefault' }],
    [{ apparmorProfile: 'unconfined' }, { type: 'Unconfined' }],
    [{ apparmorProfile: 'localhost/k8s-apparmor-example-deny-write' }, { type: 'Localhost', name: 'k8s-apparmor-example-deny-write' }],
    [{ apparmor: { profileType: 'RuntimeDefault' } }, { type: 'RuntimeDefault' }],
    [{ apparmor: { profileType: 1 } }, { type: 'Unconfined' }],
    [{ apparmor: { profileType: 'Localhost', localhostRef: 'my-profile' } }, { type: 'Localhost', name: 'my-profile' }],
    [{ apparmor: { profileType: 2, localhostRef: 'localhost/my-profile' } }, { type: 'Localhost', name: 'my-profile' }],
    // The structured field wins over the deprecated string, as in containerd.
    [{ apparmor: { profileType: 'Unconfined' }, apparmorProfile: 'localhost/other' }, { type: 'Unconfined' }],
  ] as const)('%j -> %j', (sc, want) => {
    expect(apparmorChoice(sc as never)).toEqual(want);
  });

  it.each([
    [{ apparmorProfile: 'my-profile' }, /invalid apparmor profile "my-profile"/],
    [{ apparmorProfile: 'localhost/' }, /invalid apparmor localhost profile name ""/],
    [{ apparmor: { profileType: 'Localhost', localhostRef: '' } }, /invalid apparmor localhost profile name/],
    [{ apparmor: { profileType: 'RuntimeDefault', localhostRef: 'x' } }, /localhost_ref must only be set if profile_type is Localhost/],
    [{ apparmor: { profileType: 'Localhost', localhostRef: 'two words' } }, /invalid apparmor localhost profile name/],
  ] as const)('refuses %j with InvalidArgument', (sc, message) => {
    let caught: unknown;
    try {
      apparmorChoice(sc as never);
    } catch (error) {
      caught = error;
    }
    expect((caught as { kind?: string }).kind).toBe('invalid-argument');
    expect(String((caught as Error).message)).toMatch(message);
  });
});

describe('process.apparmorProfile', () => {
  it('applies the runtime default where the host has AppArmor, nothing where it has not', () => {
    expect(apparmorProfileFor({}, true)).toBe(DEFAULT_APPARMOR_PROFILE);
    expect(apparmorProfileFor({ apparmorProfile: 'runtime/default' }, false)).toBeUndefined();
    expect(apparmorProfileFor({}, false)).toBeUndefined();
  });

  it('leaves unconfined and privileged containers without a profile unless they name one', () => {
    expect(apparmorProfileFor({ apparmorProfile: 'unconfined' }, true)).toBeUndefined();
    expect(apparmorProfileFor({ privileged: true }, true)).toBeUndefined();
    expect(apparmorProfileFor({ privileged: true, apparmorProfile: 'localhost/p' }, true)).toBe('p');
  });

  it('names a Localhost profile as is, and refuses it on a host without AppArmor', () => {
    expect(apparmorProfileFor({ apparmor: { profileType: 'Localhost', localhostRef: 'localhost/p1' } }, true)).toBe('p1');
    expect(() => apparmorProfileFor({ apparmorProfile: 'localhost/p1' }, false)).toThrow(/host has no AppArmor/);
  });
});

describe('loaded profiles and the default profile', () => {
  it('reads the kernel profile list, names with spaces in modes stripped', () => {
    const list = 'isulats-default (enforce)\n/usr/sbin/ntpd (complain)\nlsb_release (unconfined)\n';
    expect([...loadedProfiles(list)]).toEqual(['isulats-default', '/usr/sbin/ntpd', 'lsb_release']);
  });

  it('writes a profile that confines mounts and kernel knobs but lets the runtime signal it', () => {
    const text = defaultProfileText();
    expect(text).toContain(`profile ${DEFAULT_APPARMOR_PROFILE} flags=(attach_disconnected,mediate_deleted) {`);
    expect(text).toContain('#include <tunables/global>');
    expect(text).toContain('  deny mount,');
    expect(text).toContain('  signal (receive) peer=unconfined,');
    expect(defaultProfileText('x', false)).not.toContain('#include');
  });

  it('refuses an unloaded Localhost profile at create with InvalidArgument, and passes a loaded one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ist-aa-'));
    try {
      const profiles = join(dir, 'profiles');
      await writeFile(profiles, 'loaded-one (enforce)\n');
      await expect(ensureApparmorProfile('loaded-one', dir, profiles)).resolves.toBeUndefined();
      await expect(ensureApparmorProfile(undefined, dir, profiles)).resolves.toBeUndefined();
      await expect(ensureApparmorProfile('missing-one', dir, profiles)).rejects.toMatchObject({ kind: 'invalid-argument' });
      expect(await readFile(profiles, 'utf8')).toBe('loaded-one (enforce)\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
