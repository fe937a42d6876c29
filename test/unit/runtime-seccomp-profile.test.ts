import { describe, expect, it } from 'vitest';
import { seccompChoice, type SeccompSettings } from '../../src/runtime/container/seccomp-profile.js';

describe('seccompChoice (as containerd reads a CRI security context)', () => {
  it.each<[string, SeccompSettings | undefined, ReturnType<typeof seccompChoice>]>([
    ['nothing set', {}, undefined],
    ['no security context', undefined, undefined],
    ['an empty deprecated path', { seccompProfilePath: '' }, undefined],
    ['unconfined', { seccompProfilePath: 'unconfined' }, { type: 'Unconfined' }],
    ['runtime/default', { seccompProfilePath: 'runtime/default' }, { type: 'RuntimeDefault' }],
    ['docker/default', { seccompProfilePath: 'docker/default' }, { type: 'RuntimeDefault' }],
    ['localhost/<absolute path>', { seccompProfilePath: 'localhost//var/lib/kubelet/seccomp/audit.json' }, { type: 'Localhost', path: '/var/lib/kubelet/seccomp/audit.json' }],
    ['Localhost by name', { seccomp: { profileType: 'Localhost', localhostRef: '/p.json' } }, { type: 'Localhost', path: '/p.json' }],
    ['Localhost by number, localhost/ trimmed', { seccomp: { profileType: 2, localhostRef: 'localhost//p.json' } }, { type: 'Localhost', path: '/p.json' }],
    ['RuntimeDefault (the zero value)', { seccomp: { profileType: 0 } }, { type: 'RuntimeDefault' }],
    ['Unconfined', { seccomp: { profileType: 'Unconfined' } }, { type: 'Unconfined' }],
    ['the structured field before the path', { seccomp: { profileType: 'Unconfined' }, seccompProfilePath: 'localhost//p.json' }, { type: 'Unconfined' }],
    ['privileged, whatever is asked', { privileged: true, seccompProfilePath: 'localhost/relative' }, undefined],
  ])('%s', (_what, sc, want) => {
    expect(seccompChoice(sc)).toEqual(want);
  });

  it.each<[string, SeccompSettings, RegExp]>([
    ['a path without a known prefix', { seccompProfilePath: '/p.json' }, /invalid seccomp profile "\/p.json"/],
    ['a relative localhost/ path', { seccompProfilePath: 'localhost/p.json' }, /must be an absolute path/],
    ['Localhost without a ref', { seccomp: { profileType: 'Localhost' } }, /must be an absolute path, got ""/],
    ['a ref with another profile type', { seccomp: { profileType: 'RuntimeDefault', localhostRef: '/p.json' } }, /localhost_ref must only be set if profile_type is Localhost/],
  ])('refuses %s', (_what, sc, error) => {
    expect(() => seccompChoice(sc)).toThrow(error);
  });
});
