// Replays, against the Adaptation, the bytes a plugin built on upstream's Go
// stub (NRI 0.6.1, examples/nri/go-reference-plugin) sent to it in a live
// session: its RegisterPlugin request and its answers to Configure,
// Synchronize, RunPodSandbox (UNIMPLEMENTED: an older plugin), StateChange,
// CreateContainer (env, annotation, rlimit), StateChange and Shutdown. Proves
// that Go-encoded envelopes and messages decode here without Go installed.
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Adaptation } from '../../src/nri/adaptation/index.js';
import { Mux, PLUGIN_SERVICE_CONN, RUNTIME_SERVICE_CONN } from '../../src/nri/mux/mux.js';
import { FrameDecoder, MessageType, encodeFrame, loadEnvelopes } from '../../src/nri/ttrpc/index.js';

/** Recorded from the Go plugin: conn 2 carries its requests, conn 1 its responses. */
const RECORDED: { conn: number; streamId: number; type: number; payload: string }[] = [
  { conn: 2, streamId: 1, type: 1, payload: 'ChxucmkucGtnLmFwaS52MWFscGhhMS5SdW50aW1lEg5SZWdpc3RlclBsdWdpbhoMCgZnb3BsdWcSAjQwILCsrrcH' },
  { conn: 1, streamId: 1, type: 2, payload: 'EgIQKQ==' },
  { conn: 1, streamId: 3, type: 2, payload: '' },
  { conn: 1, streamId: 5, type: 2, payload: 'ChgIDBIUbWV0aG9kIFJ1blBvZFNhbmRib3g=' },
  { conn: 1, streamId: 7, type: 2, payload: '' },
  { conn: 1, streamId: 9, type: 2, payload: 'EkAKPhIVCglnby1wbHVnaW4SCHdhcy1oZXJlIg4KB0ZST01fR08SA3llczoVCg1STElNSVRfTk9GSUxFEIAgGIAI' },
  { conn: 1, streamId: 11, type: 2, payload: '' },
  { conn: 1, streamId: 13, type: 2, payload: '' },
];

describe('NRI adaptation against recorded Go plugin messages', () => {
  let dir: string | undefined;
  let runtime: Adaptation | undefined;

  afterEach(async () => {
    await runtime?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('registers, configures, falls back to StateChange and merges the Go adjustment', async () => {
    dir = mkdtempSync(join(tmpdir(), 'nrir-'));
    const pod = { id: 'pod-go', name: 'gopod', uid: 'u', namespace: 'default' };
    const container = { id: 'ctr-go', podSandboxId: 'pod-go', name: 'app', args: ['sh'], env: ['PATH=/bin'] };
    runtime = new Adaptation({
      runtimeName: 'isulats',
      runtimeVersion: 'test',
      socketPath: join(dir, 'nri.sock'),
      enableExternalConnections: true,
      syncFn: async () => ({ pods: [pod], containers: [] }),
      updateFn: async () => [],
    });
    await runtime.start();

    const env = await loadEnvelopes();
    const sock = net.connect(join(dir, 'nri.sock'));
    await new Promise((r) => sock.once('connect', r));
    const mux = new Mux(sock);
    const pluginConn = mux.open(PLUGIN_SERVICE_CONN);
    const runtimeConn = mux.open(RUNTIME_SERVICE_CONN);
    const answers = new Map(RECORDED.filter((m) => m.conn === 1).map((m) => [m.streamId, Buffer.from(m.payload, 'base64')]));
    const methods: string[] = [];
    const requests = new FrameDecoder({
      frame: (f) => {
        methods.push(env.decodeRequest(f.payload).method);
        pluginConn.write(encodeFrame(f.streamId, MessageType.response, 0, answers.get(f.streamId)!));
      },
      oversized: () => undefined,
    });
    pluginConn.on('data', (b: Buffer) => requests.push(b));
    const registered = new Promise<Buffer>((resolve) => {
      const d = new FrameDecoder({ frame: (f) => resolve(f.payload), oversized: () => undefined });
      runtimeConn.on('data', (b: Buffer) => d.push(b));
    });
    const register = RECORDED.find((m) => m.conn === 2)!;
    runtimeConn.write(encodeFrame(register.streamId, register.type, 0, Buffer.from(register.payload, 'base64')));
    expect(env.decodeResponse(await registered).status?.code ?? 0).toBe(0);

    for (let i = 0; i < 200 && runtime.plugins().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(runtime.plugins()).toMatchObject([{ name: 'goplug', index: '40', events: ['RunPodSandbox', 'CreateContainer', 'StartContainer'] }]);
    await runtime.runPodSandbox(pod);
    const res = await runtime.createContainer(pod, container);
    await runtime.startContainer(pod, container);
    await runtime.stop();
    runtime = undefined;
    mux.close();

    expect(methods).toEqual(['Configure', 'Synchronize', 'RunPodSandbox', 'StateChange', 'CreateContainer', 'StateChange', 'Shutdown']);
    expect(res.adjust.env).toEqual([{ key: 'FROM_GO', value: 'yes' }]);
    expect(res.adjust.annotations).toEqual({ 'go-plugin': 'was-here' });
    expect(res.adjust.rlimits).toEqual([{ type: 'RLIMIT_NOFILE', hard: '4096', soft: '1024' }]);
  });
});
