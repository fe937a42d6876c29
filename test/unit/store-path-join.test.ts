import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinPath } from '../../src/runtime/store/path-join.js';

const ID = '4cfebf46c908af6c2c6c34f95bf30080a4be58189bb99d42d234917309bb6f77';

describe('joinPath', () => {
  it.each([
    [['/var/lib/isulats/containers', ID, 'meta.json']],
    [['/var/lib/isulats/locks/containers', `${ID}.lock`]],
    [['/run/isulats', 'rootfs', ID]],
    [['/var/lib/isulats/names/containers', 'k8s_app_web-7d9f8b6c5d-x2x4q_default_e52cc183-528a-4e15-8676-8c4d06435bc7_0']],
    [['/var/log/pods/default_web_e52cc183', 'app/0.log']],
    [['/root/', 'a']],
    [['/root', '/a']],
    [['/root', 'a/']],
    [['/root', '']],
    [['', 'a']],
    [['']],
    [['/']],
    [['/', 'a']],
    [['.']],
    [['./a', 'b']],
    [['/root', '..', 'x']],
    [['/root', 'a/../../b']],
    [['/root', '.', 'x']],
    [['/root', 'x/.']],
    [['/root', 'x/..']],
    [['relative', 'x']],
    [['/root', '.hidden', '..b', '...', 'a.', 'b..']],
    [['/root//x', 'y']],
  ])('joins %j as path.join does', (parts) => {
    expect(joinPath(...parts)).toBe(join(...parts));
  });
});
