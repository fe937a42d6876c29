import { describe, expect, it } from 'vitest';
import {
  encodeResize, exitCodeStatus, headerValues, negotiateStreamProtocol, failureStatus, interpretErrorStream, ResizeDecoder, spdyProtocolVersion, successStatus,
} from '../../src/protocols/remotecommand/index.js';

const json = (v: unknown): Buffer => Buffer.from(JSON.stringify(v));

describe('remote command error stream', () => {
  it.each([
    ['an empty stream', Buffer.alloc(0), 'json', { exitCode: 0 }],
    ['a Success status', json(successStatus()), 'json', { exitCode: 0 }],
    ['a NonZeroExitCode status', json(exitCodeStatus(3)), 'json', { exitCode: 3 }],
    ['another failure', json(failureStatus('container not running')), 'json', { error: 'container not running' }],
    ['an exit cause that is not a number', json({ status: 'Failure', reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: 'x' }] } }), 'json', { error: 'error stream protocol error: invalid exit code value "x"' }],
    ['text that is not JSON', Buffer.from('garbage'), 'json', { error: 'error stream protocol error: garbage' }],
    ['a pre-v4 message naming the exit code', Buffer.from('command terminated with non-zero exit code: exit status 7'), 'text', { exitCode: 7 }],
    ['a pre-v4 message', Buffer.from('container not found'), 'text', { error: 'container not found' }],
  ] as const)('reads %s', (_what, bytes, format, expected) => {
    expect(interpretErrorStream(bytes, format)).toEqual(expected);
  });

  it('writes exit codes the way kubelet does: reason NonZeroExitCode, cause ExitCode', () => {
    expect(exitCodeStatus(42)).toMatchObject({
      status: 'Failure', reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: '42' }] },
    });
  });
});

describe('resize messages', () => {
  it('encodes sizes as {"Width","Height"} JSON', () => {
    expect(encodeResize({ width: 80, height: 24 }).toString()).toBe('{"Width":80,"Height":24}');
  });

  it('decodes back-to-back objects split across chunks', () => {
    const d = new ResizeDecoder();
    const wire = Buffer.concat([encodeResize({ width: 1, height: 2 }), Buffer.from('\n'), encodeResize({ width: 3, height: 4 })]).toString();
    expect(d.push(wire.slice(0, 10))).toEqual([]);
    expect(d.push(wire.slice(10, 30))).toEqual([{ width: 1, height: 2 }]);
    expect(d.push(wire.slice(30))).toEqual([{ width: 3, height: 4 }]);
  });
});

describe('SPDY remote command protocol versions', () => {
  it.each([['v4.channel.k8s.io', 4], ['v3.channel.k8s.io', 3], ['v2.channel.k8s.io', 2], ['channel.k8s.io', 1], ['nope', undefined]] as const)(
    '%s is version %s', (name, version) => expect(spdyProtocolVersion(name)).toBe(version));
});

describe('stream protocol negotiation (server side)', () => {
  it('takes the first protocol of the client that the server supports', () => {
    expect(negotiateStreamProtocol(['v4.channel.k8s.io', 'v3.channel.k8s.io'], ['v3.channel.k8s.io', 'v4.channel.k8s.io']))
      .toEqual({ ok: true, protocol: 'v4.channel.k8s.io' });
  });

  it('answers 403 when nothing matches and 400 when the client offered nothing', () => {
    expect(negotiateStreamProtocol(['v9'], ['v4.channel.k8s.io'])).toMatchObject({ ok: false, statusCode: 403 });
    expect(negotiateStreamProtocol([], ['v4.channel.k8s.io'])).toMatchObject({ ok: false, statusCode: 400 });
  });

  it('reads repeated and comma-separated header values', () => {
    expect(headerValues(['a, b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(headerValues(undefined)).toEqual([]);
  });
});
