import type { Call, CallKind } from '@fmk/core';
import { useSyncExternalStore } from 'react';
import { call } from '../../api/call.ts';
import { CallEngine, DEVICE } from './engine.ts';
import { Ringtone } from './ringtone.ts';

/**
 * The call of this tab: one at a time, shown over any screen by CallLayer. Phases:
 *   outgoing   ringing the other (ringback)        incoming  he is calling (ringtone)
 *   connecting answered, media being set up       connected media flows (timer, quality)
 *   ended      what happened, for a moment         denied    camera or microphone refused
 * Server events move it ('call', 'call-signal' on the live channel); the buttons call the API.
 */
export type CallPhase = 'outgoing' | 'incoming' | 'connecting' | 'connected' | 'ended' | 'denied';

export interface CallView {
  call: Call;
  phase: CallPhase;
  engine: CallEngine;
  /** The browser is asking for the camera or microphone (its prompt is up). */
  asking: boolean;
  /** What the ended screen says. */
  endedText: string | null;
  /**
   * The server refused this call's signal (a caller whose tier lost video calls mid-call; the
   * server ended the call too): its text, shown on the ended screen with the way to Premium.
   */
  refusal: string | null;
}

let view: CallView | null = null;
const listeners = new Set<() => void>();
const ringtone = new Ringtone();
let dismissTimer: ReturnType<typeof setTimeout> | null = null;
/** How long the ended screen stays. */
export const ENDED_SCREEN_MS = 2500;

function emit(): void {
  for (const l of listeners) l();
}

function set(next: CallView | null): void {
  const prev = view;
  view = next;
  const ring = next?.phase === 'incoming' ? 'incoming' : next?.phase === 'outgoing' ? 'ringback' : null;
  const prevRing = prev?.phase === 'incoming' ? 'incoming' : prev?.phase === 'outgoing' ? 'ringback' : null;
  if (ring !== prevRing) {
    if (ring) ringtone.start(ring);
    else ringtone.stop();
  }
  emit();
}

function patch(p: Partial<CallView>): void {
  if (view) set({ ...view, ...p });
}

/** The current call, outside React (tests, the pagehide hang-up). */
export function callSnapshot(): CallView | null {
  return view;
}

export function useCallView(): CallView | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => view,
    () => null,
  );
}

/** Re-renders on the engine's own changes too (media, quality, mute). */
function engineFor(c: Call, isCaller: boolean): CallEngine {
  const engine = new CallEngine(
    c.id,
    c.kind,
    isCaller,
    () => {
      if (view?.engine !== engine) return;
      if (engine.state.connected && view.phase === 'connecting') patch({ phase: 'connected' });
      else set({ ...view });
    },
    (status, message) => refused(c.id, status, message),
  );
  return engine;
}

/**
 * A signal of this call refused by the server (by HTTP or on the socket). A 403 ends the call (the
 * server ended it for both): the ended screen says why and stays until he closes it.
 */
function refused(callId: string, status: number, message: string): void {
  if (!view || view.call.id !== callId || status !== 403) return;
  if (dismissTimer) clearTimeout(dismissTimer);
  dismissTimer = null;
  if (view.phase === 'ended') patch({ refusal: message });
  else {
    view.engine.close();
    set({ ...view, phase: 'ended', endedText: 'Call ended', refusal: message });
  }
}

function isDenied(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  return name === 'NotAllowedError' || name === 'SecurityError' || name === 'NotFoundError';
}

export function endedText(c: Call, mine: boolean): string {
  switch (c.outcome) {
    case 'busy':
      return 'He is on another call.';
    case 'declined':
      return mine ? 'Call declined' : 'Declined';
    case 'missed':
      return c.calleeId === c.other.uid ? 'No answer' : 'Missed call';
    default:
      return 'Call ended';
  }
}

function finish(c: Call, text?: string): void {
  if (!view) return;
  view.engine.close();
  set({ ...view, call: c, phase: 'ended', endedText: text ?? endedText(c, true) });
  if (dismissTimer) clearTimeout(dismissTimer);
  const ended = view;
  if (reportingOpen || view.refusal) return;
  dismissTimer = setTimeout(() => {
    if (view === ended || view?.call.id === c.id) set(null);
  }, ENDED_SCREEN_MS);
}

/** Calls a man from a chat. Throws the server's refusal (ApiError: the upgrade text for a free caller). */
export async function startCall(userId: string, kind: CallKind): Promise<void> {
  if (view && view.phase !== 'ended' && view.phase !== 'denied') throw new Error('You are already on a call.');
  const c = await call('POST /calls', { body: { userId, kind, device: DEVICE } });
  const engine = engineFor(c, true);
  set({ call: c, phase: c.state === 'ended' ? 'ended' : 'outgoing', engine, asking: true, endedText: null, refusal: null });
  if (c.state === 'ended') return finish(c);
  void engine.iceServers();
  try {
    await engine.media();
    if (view?.engine === engine) patch({ asking: false });
  } catch (err) {
    await call('POST /calls/:id/hangup', { params: { id: c.id } }).catch(() => undefined);
    if (view?.engine === engine) {
      engine.close();
      set({ ...view, phase: 'denied', asking: false, endedText: isDenied(err) ? null : String((err as Error).message) });
    }
  }
}

export async function acceptCall(): Promise<void> {
  const v = view;
  if (v?.phase !== 'incoming') return;
  v.engine.marks.acceptedAt = performance.now();
  patch({ phase: 'connecting', asking: true });
  try {
    await v.engine.media();
  } catch (err) {
    await call('POST /calls/:id/decline', { params: { id: v.call.id } }).catch(() => undefined);
    if (view?.engine === v.engine)
      set({ ...view, phase: 'denied', asking: false, endedText: isDenied(err) ? null : String(err) });
    return;
  }
  patch({ asking: false });
  // The connection exists before the caller hears of the answer, so his offer finds it.
  await v.engine.connect();
  try {
    const c = await call('POST /calls/:id/accept', { params: { id: v.call.id }, body: { device: DEVICE } });
    if (view?.engine === v.engine) patch({ call: c });
  } catch {
    finish(v.call, 'This call is no longer ringing.');
  }
}

export async function declineCall(): Promise<void> {
  const v = view;
  if (!v) return;
  v.engine.close();
  set(null);
  await call('POST /calls/:id/decline', { params: { id: v.call.id } }).catch(() => undefined);
}

export async function hangUp(): Promise<void> {
  const v = view;
  if (!v) return;
  if (v.phase === 'ended' || v.phase === 'denied') return set(null);
  const c = await call('POST /calls/:id/hangup', { params: { id: v.call.id } }).catch(() => null);
  finish(c ?? { ...v.call, state: 'ended', outcome: 'finished' });
}

// A tab closing mid-call hangs up on its way out (the server also ends a call left without any tab).
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => {
    if (view && view.phase !== 'ended' && view.phase !== 'denied' && view.phase !== 'incoming')
      void call('POST /calls/:id/hangup', { params: { id: view.call.id }, keepalive: true }).catch(() => undefined);
  });
}

let reportingOpen = false;
/** The ended screen stays while he reports the call from it (he closes it himself). */
export function keepCallScreen(): void {
  reportingOpen = true;
  if (dismissTimer) clearTimeout(dismissTimer);
  dismissTimer = null;
}

export function dismissCall(): void {
  reportingOpen = false;
  view?.engine.close();
  set(null);
}

/** The live channel's call events; true when the event was one. */
export function handleCallEvent(e: { type: string; [k: string]: unknown }): boolean {
  if (e.type === 'ready') {
    // A tab that opens (or reconnects) while he is being called still rings.
    void call('GET /calls/current')
      .then((c) => {
        if (!c || view) return;
        if (c.state === 'ringing' && c.callerId === c.other.uid) onCall(c);
        // This tab made or carried the call before a reload: its media is gone, so the call ends.
        else if ((c.callerId === c.other.uid ? c.calleeDevice : c.callerDevice) === DEVICE)
          void call('POST /calls/:id/hangup', { params: { id: c.id } }).catch(() => undefined);
      })
      .catch(() => undefined);
    return false;
  }
  if (e.type === 'call' && e.call && typeof e.call === 'object') {
    onCall(e.call as Call);
    return true;
  }
  // A signal the server refused on the socket: the call's own events say what happens next, and a
  // refusal of the caller's tier is said on the ended screen.
  if (e.type === 'call-error') {
    if (typeof e.callId === 'string' && typeof e.status === 'number' && typeof e.message === 'string')
      refused(e.callId, e.status, e.message);
    return true;
  }
  if (e.type === 'call-signal') {
    const signal = e.signal as Parameters<CallEngine['receive']>[0];
    if (view && view.call.id === e.callId && e.device === DEVICE) void view.engine.receive(signal);
    return true;
  }
  return false;
}

function onCall(c: Call): void {
  const incoming = c.callerId === c.other.uid;
  if (!view || view.call.id !== c.id) {
    // A new call ringing for me, on every tab; the server answers busy if I am on one.
    if (incoming && c.state === 'ringing' && (!view || view.phase === 'ended' || view.phase === 'denied')) {
      const engine = engineFor(c, false);
      set({ call: c, phase: 'incoming', engine, asking: false, endedText: null, refusal: null });
      void engine.iceServers();
    }
    return;
  }
  if (c.state === 'ended') {
    finish(c, endedText(c, false));
    return;
  }
  if (c.state === 'active') {
    if (incoming && c.calleeDevice !== DEVICE) {
      // Answered on another of my tabs.
      view.engine.close();
      set(null);
      return;
    }
    if (!incoming && view.phase === 'outgoing') {
      patch({ call: c, phase: 'connecting' });
      void view.engine.connect();
      return;
    }
    patch({ call: c });
  }
}
