import { describe, expect, it } from 'vitest';
import {
  channelProtocol, CLOSE_CHANNEL, decodeChannelMessage, encodeChannelMessage, encodeCloseSignal, encodePortPrefix,
  PortPrefixStripper, REMOTECOMMAND_WS_PROTOCOLS,
} from '../../src/protocols/k8s-channel/index.js';

describe('k8s WebSocket channel codec', () => {
  it('prefixes binary messages with the channel byte', () => {
    const out = encodeChannelMessage(2, Buffer.from('oops'), false);
    expect(out).toEqual(Buffer.from([2, ...Buffer.from('oops')]));
    expect(decodeChannelMessage(out as Buffer, false)).toEqual({ channel: 2, data: Buffer.from('oops') });
  });

  it('sends base64 messages as text led by the channel digit', () => {
    const out = encodeChannelMessage(1, Buffer.from([0, 255, 10]), true);
    expect(out).toBe('1AP8K');
    expect(decodeChannelMessage(out as string, true)).toEqual({ channel: 1, data: Buffer.from([0, 255, 10]) });
  });

  it('decodes a base64 message handed over as a Buffer', () => {
    expect(decodeChannelMessage(Buffer.from('3e30='), true)).toEqual({ channel: 3, data: Buffer.from('{}') });
  });

  it('treats the empty connection-established message as no data', () => {
    expect(decodeChannelMessage(Buffer.from([1]), false)).toEqual({ channel: 1, data: Buffer.alloc(0) });
    expect(decodeChannelMessage('1', true)).toEqual({ channel: 1, data: Buffer.alloc(0) });
  });

  it('rejects empty messages and out-of-range channels', () => {
    expect(() => decodeChannelMessage(Buffer.alloc(0), false)).toThrow(/empty/);
    expect(() => decodeChannelMessage('', true)).toThrow(/empty/);
    expect(() => encodeChannelMessage(256, Buffer.alloc(0), false)).toThrow(/bad channel/);
  });

  it('encodes the v5 close signal as channel 255 carrying the closed channel', () => {
    expect(encodeCloseSignal(0)).toEqual(Buffer.from([CLOSE_CHANNEL, 0]));
  });

  it.each([
    ['v5.channel.k8s.io', 5, false, 'json', true],
    ['v4.channel.k8s.io', 4, false, 'json', false],
    ['v4.base64.channel.k8s.io', 4, true, 'json', false],
    ['channel.k8s.io', 1, false, 'text', false],
    ['base64.channel.k8s.io', 1, true, 'text', false],
  ] as const)('knows %s: version %i, base64 %s, status %s, close %s', (name, version, base64, statusFormat, supportsClose) => {
    expect(channelProtocol(name)).toEqual({ name, version, base64, statusFormat, supportsClose });
  });

  it('offers v5 first, then v4, then the older protocols', () => {
    expect(REMOTECOMMAND_WS_PROTOCOLS[0]).toBe('v5.channel.k8s.io');
    expect(REMOTECOMMAND_WS_PROTOCOLS.indexOf('v4.channel.k8s.io')).toBeLessThan(REMOTECOMMAND_WS_PROTOCOLS.indexOf('channel.k8s.io'));
  });

  it('strips the little-endian port prefix once per channel, even when split', () => {
    const s = new PortPrefixStripper();
    const prefix = encodePortPrefix(8080);
    expect([...prefix]).toEqual([0x90, 0x1f]);
    expect(s.strip(0, prefix.subarray(0, 1))).toBeUndefined();
    expect(s.strip(0, Buffer.concat([prefix.subarray(1), Buffer.from('hi')]))).toEqual(Buffer.from('hi'));
    expect(s.strip(0, Buffer.from('more'))).toEqual(Buffer.from('more'));
    expect(s.strip(1, prefix)).toEqual(Buffer.alloc(0));
    expect(s.ports.get(0)).toBe(8080);
    expect(s.ports.get(1)).toBe(8080);
  });
});
