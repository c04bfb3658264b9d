import type { Call } from '@fmk/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, serve } from '../../test/fixtures.tsx';
import { DEVICE } from './engine.ts';
import { callSnapshot, dismissCall, ENDED_SCREEN_MS, endedText, handleCallEvent } from './store.ts';

const ME = 'me';
const HIM = { uid: 'him', displayName: 'Ben', photoURL: null };

/** A call as the live channel sends it to me; incoming unless `outgoing`. */
function callOf(patch: Partial<Call> = {}, outgoing = false): Call {
  return {
    id: 'c1',
    kind: 'video',
    state: 'ringing',
    outcome: null,
    callerId: outgoing ? ME : HIM.uid,
    calleeId: outgoing ? HIM.uid : ME,
    conversationId: 'conv',
    other: HIM,
    callerDevice: 'his-tab-0001',
    calleeDevice: null,
    createdAt: '2026-06-01T12:00:00.000Z',
    ringUntil: '2026-06-01T12:00:45.000Z',
    answeredAt: null,
    endedAt: null,
    ...patch,
  };
}

let requests: ReturnType<typeof serve> = [];
beforeEach(() => {
  // The server's answer to the ICE question a ringing tab asks at once.
  requests = serve({ 'GET /api/v1/calls/ice-servers': () => json(200, { iceServers: [], ttlSeconds: null, relayOnly: false }) });
});

afterEach(() => {
  dismissCall();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the call store', () => {
  it('rings for an incoming call on every tab, and stops when another of my tabs answers', () => {
    expect(handleCallEvent({ type: 'call', call: callOf() })).toBe(true);
    expect(callSnapshot()?.phase).toBe('incoming');
    // It asks for the ICE servers while it rings, so that answering is quicker.
    expect(requests.map((r) => r.key)).toEqual(['GET /api/v1/calls/ice-servers']);
    // A signal for another tab is not this tab's.
    expect(
      handleCallEvent({
        type: 'call-signal',
        callId: 'c1',
        device: 'other-tab-01',
        signal: { kind: 'ice', candidate: { candidate: '' } },
      }),
    ).toBe(true);
    handleCallEvent({ type: 'call', call: callOf({ state: 'active', calleeDevice: 'other-tab-01' }) });
    expect(callSnapshot()).toBeNull();
  });

  it('ignores my own outgoing call seen from another tab', () => {
    handleCallEvent({ type: 'call', call: callOf({}, true) });
    expect(callSnapshot()).toBeNull();
  });

  it('shows how a call ended for a moment, then goes away', () => {
    vi.useFakeTimers();
    handleCallEvent({ type: 'call', call: callOf() });
    handleCallEvent({ type: 'call', call: callOf({ state: 'ended', outcome: 'missed', endedAt: '2026-06-01T12:00:45.000Z' }) });
    expect(callSnapshot()).toMatchObject({ phase: 'ended', endedText: 'Missed call' });
    vi.advanceTimersByTime(ENDED_SCREEN_MS + 10);
    expect(callSnapshot()).toBeNull();
  });

  it('leaves other events to the rest of the app', () => {
    expect(handleCallEvent({ type: 'message' })).toBe(false);
    expect(typeof DEVICE).toBe('string');
  });

  it('words each ending', () => {
    expect(endedText(callOf({ outcome: 'busy' }, true), true)).toBe('He is on another call.');
    expect(endedText(callOf({ outcome: 'missed' }, true), true)).toBe('No answer');
    expect(endedText(callOf({ outcome: 'missed' }), false)).toBe('Missed call');
    expect(endedText(callOf({ outcome: 'declined' }, true), true)).toBe('Call declined');
    expect(endedText(callOf({ outcome: 'finished' }), false)).toBe('Call ended');
  });
});
