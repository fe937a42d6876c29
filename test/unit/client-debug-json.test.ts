// -D's request and response lines: JSON of the message, bytes as base64, registry secrets never.
import { describe, expect, it } from 'vitest';
import { debugJson } from '../../src/client/debug-json.js';

describe('debugJson', () => {
  it('prints one line of JSON with bytes as base64 and int64 strings as they are', () => {
    const line = debugJson({ containerId: 'c', timeout: '5', stdout: Buffer.from('hi'), envs: [{ key: 'A', value: Buffer.from('b') }] });
    expect(line).toBe('{"containerId":"c","timeout":"5","stdout":"aGk=","envs":[{"key":"A","value":"Yg=="}]}');
  });

  it('redacts the credentials of a PullImageRequest', () => {
    const line = debugJson({ image: { image: 'r/x' }, auth: { username: 'u', password: 'p', auth: 'dTpw', identityToken: 't', registryToken: '', serverAddress: 'r' } });
    expect(JSON.parse(line).auth).toEqual({ username: 'u', password: '<redacted>', auth: '<redacted>', identityToken: '<redacted>', registryToken: '', serverAddress: 'r' });
  });
});
