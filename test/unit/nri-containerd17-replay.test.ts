// Replays a session recorded between containerd 1.7.24 (Debian trixie) and two
// SDK example plugins, the logger (session 0) and the env/ulimit adjuster
// (session 1), by test/integration/nri-containerd17.test.ts through its
// recording proxy. Each direction is replayed against our own code:
//  (a) containerd's requests, byte for byte, against the SDK stub running the
//      same example plugins: the stub must register as the recorded plugin
//      did and answer every request as it did;
//  (b) the plugins' registration and answers, byte for byte, against our
//      runtime side (the Adaptation) driven through the same pod and container
//      lifecycle: it must ask the plugins for the same events in the same
//      order, and take their answers, adjustment included.
// What must match and what may not:
//  - decoded messages are compared, not bytes: protobuf leaves field and map
//    order to the encoder, so equal messages need not be equal bytes;
//  - stream IDs, timestamps, temp paths and 64-hex IDs in the recording are
//    the recording run's; they are carried through unchanged and nothing
//    depends on their values;
//  - containerd 1.7.24 speaks the older NRI API: it delivers most events as
//    StateChange, where our runtime calls the per-event RPC (RunPodSandbox...);
//    both name the same event, so (b) compares the events asked for;
//  - Configure carries each runtime's own name and version (and containerd
//    1.7.24 sends zero timeouts): not compared in (b).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type * as nri from '../../src/api/nri.js';
import { Adaptation } from '../../src/nri/adaptation/index.js';
import { EVENT_METHODS, type EventName } from '../../src/nri/adaptation/events.js';
import { Mux, PLUGIN_SERVICE_CONN, RUNTIME_SERVICE_CONN, type MuxConn } from '../../src/nri/mux/mux.js';
import { loadNriCodec, type NriCodec, type PluginMethod } from '../../src/nri/protocol.js';
import { Stub, type Plugin } from '../../src/nri/sdk/index.js';
import { Code, FrameDecoder, MessageType, encodeFrame, loadEnvelopes, type Envelopes, type Frame } from '../../src/nri/ttrpc/index.js';
import { EventLogger } from '../../examples/nri/logger.js';
import { EnvUlimitAdjuster } from '../../examples/nri/env-ulimit-adjuster.js';
import { decodeRecording, type RecordedCall, type RecordedChunk } from '../rig/nri-recording.js';

interface Fixture {
  runtime: string;
  sessions: { plugin: string; idx: string }[];
  chunks: RecordedChunk[];
}

const fixture = JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/nri/containerd17-session.json'), 'utf8')) as Fixture;
const LOGGER = 0;
const ADJUSTER = 1;

let calls: RecordedCall[];
let codec: NriCodec;
let env: Envelopes;

beforeAll(async () => {
  [calls, codec, env] = await Promise.all([decodeRecording(fixture.chunks), loadNriCodec(), loadEnvelopes()]);
});

const runtimeCalls = (session: number) => calls.filter((c) => c.session === session && c.caller === 'runtime');
const registration = (session: number) => calls.find((c) => c.session === session && c.caller === 'plugin' && c.method === 'RegisterPlugin')!;
const decodeRequest = <T>(method: string, bytes: Buffer) => codec.decode<T>(codec.pluginRequestType(method as PluginMethod), bytes);
const decodeResponse = <T>(method: string, bytes: Buffer) => codec.decode<T>(codec.pluginResponseType(method as PluginMethod), bytes);

/** The event a request asks a plugin about: StateChange's event, or the one a per-event RPC delivers. */
const METHOD_EVENTS = new Map(Object.entries(EVENT_METHODS).map(([event, method]) => [method, event]));
function eventOf(method: string, request: Buffer): string {
  if (method === 'StateChange') return decodeRequest<nri.StateChangeEvent>(method, request).event as string;
  return METHOD_EVENTS.get(method) ?? method;
}

/** Calls `onFrame` for each ttrpc frame arriving on a mux connection. */
function onFrames(conn: MuxConn, onFrame: (f: Frame) => void): void {
  const d = new FrameDecoder({ frame: onFrame, oversized: () => undefined });
  conn.on('data', (b: Buffer) => d.push(b));
}

describe('containerd 1.7 recording: the recorded session itself', () => {
  it('holds both plugins registering and every call answered without error', () => {
    expect(fixture.runtime).toMatch(/^containerd 1\.7\./);
    expect(fixture.sessions.map((s) => s.plugin)).toEqual(['logger', 'env-ulimit-adjuster']);
    expect(calls.every((c) => c.response !== undefined && (c.status?.code ?? 0) === Code.OK)).toBe(true);
    expect(runtimeCalls(ADJUSTER).map((c) => c.method)).toEqual(['Configure', 'Synchronize', 'CreateContainer']);
  });
});

describe('containerd 1.7 recording (a): containerd\'s requests against the SDK stub', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  /** Plays containerd for one session; returns the stub's responses to containerd's requests, in order. */
  async function replayContainerd(session: number, plugin: Plugin): Promise<{ register: nri.RegisterPluginRequest; answers: { method: string; status: number; message: object }[] }> {
    dir = mkdtempSync(join(tmpdir(), 'nri17a-'));
    const socketPath = join(dir, 'nri.sock');
    const { plugin: name, idx } = fixture.sessions[session]!;
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(socketPath, r));
    const accepted = new Promise<net.Socket>((r) => server.once('connection', r));
    const stub = new Stub(plugin, { name, idx, socketPath, log: () => undefined });
    const started = stub.start();
    const mux = new Mux(await accepted);
    try {
      // The stub registers on the Runtime service; containerd's recorded answer goes back on the stub's stream.
      const register = await new Promise<nri.RegisterPluginRequest>((resolveRegister) => {
        const conn = mux.open(RUNTIME_SERVICE_CONN);
        onFrames(conn, (f) => {
          const req = env.decodeRequest(f.payload);
          conn.write(encodeFrame(f.streamId, MessageType.response, 0, registration(session).responseEnvelope!));
          resolveRegister(codec.decode(codec.runtimeRequestType('RegisterPlugin'), req.payload));
        });
      });
      const pluginConn = mux.open(PLUGIN_SERVICE_CONN);
      const pending = new Map<number, (f: Frame) => void>();
      onFrames(pluginConn, (f) => pending.get(f.streamId)?.(f));
      const answers = [];
      for (const call of runtimeCalls(session)) {
        const response = new Promise<Frame>((r) => pending.set(call.streamId, r));
        pluginConn.write(encodeFrame(call.streamId, MessageType.request, 0, call.requestEnvelope));
        const res = env.decodeResponse((await response).payload);
        answers.push({ method: call.method, status: res.status?.code ?? Code.OK, message: decodeResponse<object>(call.method, res.payload) });
      }
      await started;
      return { register, answers };
    } finally {
      mux.close();
      await stub.wait();
      await new Promise((r) => server.close(r));
    }
  }

  /** What the recorded plugin answered containerd, decoded the same way. */
  const recordedAnswers = (session: number) =>
    runtimeCalls(session).map((c) => ({ method: c.method, status: c.status?.code ?? Code.OK, message: decodeResponse(c.method, c.response!) }));
  const recordedRegistration = (session: number) => codec.decode(codec.runtimeRequestType('RegisterPlugin'), registration(session).request);

  it('the logger registers, subscribes and answers every event as recorded, and logs them in containerd\'s order', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'nri17l-')), 'events.log');
    try {
      const { register, answers } = await replayContainerd(LOGGER, new EventLogger(log));
      expect(register).toEqual(recordedRegistration(LOGGER));
      expect(answers).toEqual(recordedAnswers(LOGGER));
      const events = readFileSync(log, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { event: string }).event);
      expect(events).toEqual([
        `Configure ${fixture.runtime}`, 'Synchronize pods=0 containers=0',
        'RunPodSandbox', 'CreateContainer', 'PostCreateContainer', 'StartContainer', 'PostStartContainer',
        'StopContainer', 'RemoveContainer', 'StopPodSandbox', 'RemovePodSandbox',
      ]);
    } finally {
      rmSync(resolve(log, '..'), { recursive: true, force: true });
    }
  });

  it('the env/ulimit adjuster subscribes to CreateContainer only and returns the recorded adjustment', async () => {
    const { register, answers } = await replayContainerd(ADJUSTER, new EnvUlimitAdjuster({ allowedNamespaces: ['*'] }));
    expect(register).toEqual(recordedRegistration(ADJUSTER));
    expect(answers).toEqual(recordedAnswers(ADJUSTER));
    const adjust = (answers[2]!.message as nri.CreateContainerResponse).adjust;
    expect(adjust?.env).toEqual([{ key: 'GREETING', value: 'hello-from-nri' }]);
    expect(adjust?.rlimits).toEqual([{ type: 'RLIMIT_NOFILE', hard: '2048', soft: '1024' }]);
  });
});

describe('containerd 1.7 recording (b): the plugins\' side against our runtime (Adaptation)', () => {
  let dir: string | undefined;
  let runtime: Adaptation | undefined;
  const muxes: Mux[] = [];

  afterEach(async () => {
    for (const m of muxes.splice(0)) m.close();
    await runtime?.stop();
    runtime = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  /**
   * Plays one recorded plugin: sends its RegisterPlugin as recorded and answers each request with
   * its recorded answer to the same event (in order). Returns the events the runtime asked about.
   */
  async function connectRecordedPlugin(socketPath: string, session: number): Promise<{ asked: string[]; requests: Map<string, Buffer> }> {
    const sock = net.connect(socketPath);
    await new Promise((r) => sock.once('connect', r));
    const mux = new Mux(sock);
    muxes.push(mux);
    const answers = runtimeCalls(session).map((c) => ({ event: eventOf(c.method, c.request), envelope: c.responseEnvelope! }));
    const asked: string[] = [];
    const requests = new Map<string, Buffer>();
    const pluginConn = mux.open(PLUGIN_SERVICE_CONN);
    onFrames(pluginConn, (f) => {
      const req = env.decodeRequest(f.payload);
      const event = eventOf(req.method, req.payload);
      asked.push(event);
      requests.set(req.method, req.payload);
      const at = answers.findIndex((a) => a.event === event);
      const reply = at >= 0
        ? answers.splice(at, 1)[0]!.envelope
        : env.encodeResponse({ status: { code: Code.UNIMPLEMENTED, message: `not in the recording: ${event}` }, payload: Buffer.alloc(0) });
      pluginConn.write(encodeFrame(f.streamId, MessageType.response, 0, reply));
    });
    const runtimeConn = mux.open(RUNTIME_SERVICE_CONN);
    const registered = new Promise<Frame>((r) => onFrames(runtimeConn, r));
    const reg = registration(session);
    runtimeConn.write(encodeFrame(reg.streamId, MessageType.request, 0, reg.requestEnvelope));
    expect(env.decodeResponse((await registered).payload).status?.code ?? Code.OK).toBe(Code.OK);
    return { asked, requests };
  }

  async function untilPlugins(n: number): Promise<void> {
    for (let i = 0; i < 300 && runtime!.plugins().length < n; i++) await new Promise((r) => setTimeout(r, 10));
    expect(runtime!.plugins()).toHaveLength(n);
  }

  it('asks both plugins about the events containerd asked about, in order, and merges the recorded adjustment', async () => {
    dir = mkdtempSync(join(tmpdir(), 'nri17b-'));
    const socketPath = join(dir, 'nri.sock');
    runtime = new Adaptation({
      runtimeName: 'isulats', runtimeVersion: 'test', socketPath, enableExternalConnections: true,
      syncFn: async () => ({ pods: [], containers: [] }), updateFn: async () => [],
    });
    await runtime.start();
    const plugins = [await connectRecordedPlugin(socketPath, LOGGER)];
    await untilPlugins(1);
    plugins.push(await connectRecordedPlugin(socketPath, ADJUSTER));
    await untilPlugins(2);
    expect(runtime.plugins().map((p) => [p.index, p.name])).toEqual([['10', 'logger'], ['20', 'env-ulimit-adjuster']]);

    // Drive our runtime through the lifecycle containerd went through, with containerd's own pod and container.
    let created: Awaited<ReturnType<Adaptation['createContainer']>> | undefined;
    for (const call of runtimeCalls(LOGGER).slice(2)) {
      const event = eventOf(call.method, call.request) as EventName;
      const { pod, container } = decodeRequest<{ pod: nri.PodSandbox; container: nri.Container | null }>(call.method, call.request);
      const ctr = container!;
      switch (event) {
        case 'RUN_POD_SANDBOX': await runtime.runPodSandbox(pod); break;
        case 'CREATE_CONTAINER': created = await runtime.createContainer(pod, ctr); break;
        case 'POST_CREATE_CONTAINER': await runtime.postCreateContainer(pod, ctr); break;
        case 'START_CONTAINER': await runtime.startContainer(pod, ctr); break;
        case 'POST_START_CONTAINER': await runtime.postStartContainer(pod, ctr); break;
        case 'STOP_CONTAINER': await runtime.stopContainer(pod, ctr); break;
        case 'REMOVE_CONTAINER': await runtime.removeContainer(pod, ctr); break;
        case 'STOP_POD_SANDBOX': await runtime.stopPodSandbox(pod); break;
        case 'REMOVE_POD_SANDBOX': await runtime.removePodSandbox(pod); break;
        default: throw new Error(`recording holds an event this test does not drive: ${event}`);
      }
    }

    for (const session of [LOGGER, ADJUSTER]) {
      expect(plugins[session]!.asked).toEqual(runtimeCalls(session).map((c) => eventOf(c.method, c.request)));
    }
    // Given containerd's pod and container, our runtime hands the plugin the same ones.
    const ours = decodeRequest('CreateContainer', plugins[ADJUSTER]!.requests.get('CreateContainer')!);
    const theirs = decodeRequest('CreateContainer', runtimeCalls(ADJUSTER)[2]!.request);
    expect(ours).toEqual(theirs);
    expect(created!.adjust.env).toEqual([{ key: 'GREETING', value: 'hello-from-nri' }]);
    expect(created!.adjust.rlimits).toEqual([{ type: 'RLIMIT_NOFILE', hard: '2048', soft: '1024' }]);
  });
});
