import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, serve } from '../../test/fixtures.tsx';
import { FakePeerConnection, stubWebRtc } from '../../test/webrtc.ts';
import { CallEngine, DISCONNECTED_GRACE_MS, RESTART_GAP_MS } from './engine.ts';

// The engine's restart decisions against a stand-in RTCPeerConnection (the browser's API, not
// ours); the calls journey in Chromium drives the real one.

const SIGNAL = 'POST /api/v1/calls/c1/signal';
let requests: ReturnType<typeof serve> = [];
let refusals: Array<[number, string]> = [];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  stubWebRtc();
  refusals = [];
  requests = serve({
    'GET /api/v1/calls/ice-servers': () => json(200, { iceServers: [], ttlSeconds: null, relayOnly: false }),
    [SIGNAL]: () => new Response(null, { status: 204 }),
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** Lets the engine's awaited work (offers, requests) run. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

/** The signals this tab sent the server, by kind. */
const sent = () => requests.filter((r) => r.key === SIGNAL).map((r) => (r.body as { signal: { kind: string } }).signal.kind);

async function connected(isCaller: boolean): Promise<{ engine: CallEngine; pc: FakePeerConnection }> {
  const engine = new CallEngine(
    'c1',
    'video',
    isCaller,
    () => undefined,
    (status, message) => refusals.push([status, message]),
  );
  await engine.connect();
  const pc = FakePeerConnection.last!;
  pc.move('connected');
  await settle();
  return { engine, pc };
}

describe('the call engine restarts', () => {
  it('leaves a short disconnection alone, and restarts one that lasts past the grace period (caller: an ICE-restart offer)', async () => {
    const { engine, pc } = await connected(true);
    expect(pc.offers).toEqual([{ iceRestart: false }]);
    expect(sent()).toEqual(['offer']);

    pc.move('disconnected');
    expect(engine.state.reconnecting).toBe(true);
    await vi.advanceTimersByTimeAsync(DISCONNECTED_GRACE_MS - 500);
    pc.move('connected');
    await vi.advanceTimersByTimeAsync(DISCONNECTED_GRACE_MS);
    await settle();
    expect(pc.offers).toHaveLength(1);
    expect(engine.state.reconnecting).toBe(false);

    pc.move('disconnected');
    await vi.advanceTimersByTimeAsync(DISCONNECTED_GRACE_MS - 1);
    expect(pc.offers).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(pc.offers).toEqual([{ iceRestart: false }, { iceRestart: true }]);
    expect(sent()).toEqual(['offer', 'offer']);
    engine.close();
  });

  it('restarts at once on failed, once per network change: a second failure within the gap waits for it', async () => {
    const { engine, pc } = await connected(true);
    pc.move('failed');
    await settle();
    expect(pc.offers.at(-1)).toEqual({ iceRestart: true });
    expect(engine.state.reconnecting).toBe(true);
    pc.move('disconnected');
    pc.move('failed');
    await vi.advanceTimersByTimeAsync(DISCONNECTED_GRACE_MS);
    await settle();
    expect(pc.offers).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(RESTART_GAP_MS);
    pc.move('failed');
    await settle();
    expect(pc.offers).toHaveLength(3);
    expect(pc.offers.at(-1)).toEqual({ iceRestart: true });
    // The browser going back online (a new network) also restarts, and a connected call shows no "Reconnecting".
    pc.move('connected');
    await vi.advanceTimersByTimeAsync(RESTART_GAP_MS);
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(pc.offers).toHaveLength(4);
    expect(engine.state.reconnecting).toBe(false);
    engine.close();
  });

  it('has the callee ask the caller for the restart (never offering himself), and the caller answer it with an ICE-restart offer', async () => {
    const callee = await connected(false);
    expect(callee.pc.offers).toEqual([]);
    callee.pc.move('disconnected');
    await vi.advanceTimersByTimeAsync(DISCONNECTED_GRACE_MS);
    await settle();
    expect(sent()).toEqual(['restart']);
    expect(callee.pc.offers).toEqual([]);
    // His network changes again later: the browser's 'online' asks again.
    await vi.advanceTimersByTimeAsync(RESTART_GAP_MS);
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(sent()).toEqual(['restart', 'restart']);
    // The caller's offer comes back: the callee answers it.
    await callee.engine.receive({ kind: 'offer', sdp: 'v=0 restart offer' });
    expect(callee.pc.answers).toHaveLength(1);
    expect(sent()).toEqual(['restart', 'restart', 'answer']);
    callee.engine.close();

    requests.length = 0;
    const caller = await connected(true);
    await caller.engine.receive({ kind: 'restart' });
    expect(caller.pc.offers).toEqual([{ iceRestart: false }, { iceRestart: true }]);
    expect(sent()).toEqual(['offer', 'offer']);
    caller.engine.close();
  });

  it('stops after close: no restart from a pending grace period', async () => {
    const { engine, pc } = await connected(true);
    pc.move('disconnected');
    engine.close();
    await vi.advanceTimersByTimeAsync(DISCONNECTED_GRACE_MS * 2);
    await settle();
    expect(pc.offers).toHaveLength(1);
    expect(pc.closed).toBe(true);
  });

  it("hands the server's refusal of a signal to the store (the caller's tier lost video calls)", async () => {
    serve({
      'GET /api/v1/calls/ice-servers': () => json(200, { iceServers: [], ttlSeconds: null, relayOnly: false }),
      [SIGNAL]: () => json(403, { error: 'limit_reached', message: 'Video calls are available with Premium membership...' }),
    });
    const { engine } = await connected(true);
    expect(refusals).toEqual([[403, 'Video calls are available with Premium membership...']]);
    engine.close();
  });
});
