import { type Call, type CallQuality, type CallSignal, callQuality, type IceConfig } from '@fmk/core';
import { call } from '../../api/call.ts';
import { ApiError } from '../../api/client.ts';
import { sendLive } from '../../shared/liveSender.ts';

/**
 * One call's media in this tab: the camera and microphone, the RTCPeerConnection and
 * its signalling through the server. The caller makes every offer (the first, and ICE restarts
 * after a network change), so the two ends never offer at once; the callee whose network changed
 * asks him for one (a 'restart' signal). No framework here: the store (store.ts) owns an engine
 * and the screen reads the store.
 */
export interface EngineState {
  local: MediaStream | null;
  remote: MediaStream | null;
  connected: boolean;
  connectedAt: number | null;
  quality: CallQuality | null;
  muted: boolean;
  cameraOff: boolean;
  /** Remote audio through the loudspeaker-like output (setSinkId) or the default one. */
  speaker: boolean;
  cameras: number;
  reconnecting: boolean;
}

/**
 * This tab's id for calls, kept across a reload of the same tab (sessionStorage), so that a tab
 * reloaded mid-call knows the call it can no longer carry and ends it.
 */
export const DEVICE = tabDevice();

function tabDevice(): string {
  const fresh = () =>
    typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `tab-${Math.random()}`.slice(0, 40);
  try {
    const stored = sessionStorage.getItem('fmk_call_device');
    if (stored) return stored;
    const id = fresh();
    sessionStorage.setItem('fmk_call_device', id);
    return id;
  } catch {
    return fresh();
  }
}

type Listener = () => void;

/**
 * A connection 'disconnected' this long is restarted: shorter blips (a Wi-Fi hiccup) recover by
 * themselves, and a restart while they do would only cost a round of new candidates.
 */
export const DISCONNECTED_GRACE_MS = 3000;
/** One restart per network change: a second from this side waits this long after the first. */
export const RESTART_GAP_MS = 5000;

export class CallEngine {
  state: EngineState = {
    local: null,
    remote: null,
    connected: false,
    connectedAt: null,
    quality: null,
    muted: false,
    cameraOff: false,
    speaker: true,
    cameras: 0,
    reconnecting: false,
  };
  private pc: RTCPeerConnection | null = null;
  private pendingIce: RTCIceCandidateInit[] = [];
  /** Signals that came before the connection was built (the callee's offer can beat it). */
  private chain: Promise<void> = Promise.resolve();
  private early: Array<CallSignal | { kind: 'offer' | 'answer'; sdp: null }> = [];
  private statsTimer: ReturnType<typeof setInterval> | null = null;
  private lastIn = { received: 0, lost: 0 };
  private facing: 'user' | 'environment' = 'user';
  private closed = false;
  private graceTimer: ReturnType<typeof setTimeout> | null = null;
  private lastRestartAt = Number.NEGATIVE_INFINITY;
  private readonly onOnline = () => void this.restartIce();
  /** For measurements (e2e): when accept was pressed and the first remote frame came. */
  readonly marks: { acceptedAt?: number; firstFrameAt?: number } = {};

  constructor(
    readonly callId: string,
    readonly kind: Call['kind'],
    readonly isCaller: boolean,
    private readonly changed: Listener,
    /** The server refused a signal of this tab (a caller whose tier lost video calls): its status and text. */
    private readonly refused: (status: number, message: string) => void = () => undefined,
  ) {}

  private set(patch: Partial<EngineState>): void {
    this.state = { ...this.state, ...patch };
    this.changed();
  }

  /** Asks for the camera (video calls) and microphone; throws the browser's error (NotAllowedError when refused). */
  media(): Promise<void> {
    this.mediaReady ??= this.getMedia();
    return this.mediaReady;
  }

  private mediaReady: Promise<void> | null = null;

  private async getMedia(): Promise<void> {
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: true,
      video: this.kind === 'video' ? { facingMode: this.facing } : false,
    });
    if (this.closed) {
      for (const t of stream.getTracks()) t.stop();
      return;
    }
    const devices = await navigator.mediaDevices.enumerateDevices().catch(() => []);
    this.set({ local: stream, cameras: devices.filter((d) => d.kind === 'videoinput').length });
  }

  private ice: Promise<IceConfig> | null = null;

  /** The ICE servers, asked once and early (while it rings), so that answering waits on one round trip less. */
  iceServers(): Promise<IceConfig> {
    this.ice ??= call('GET /calls/ice-servers').catch(() => ({ iceServers: [], ttlSeconds: null, relayOnly: false }));
    return this.ice;
  }

  /** Builds the peer connection with the server's ICE servers; the caller then offers. */
  async connect(): Promise<void> {
    if (this.pc || this.closed) return;
    // The tracks go in the first offer: wait for the camera and microphone (or their refusal).
    await this.mediaReady?.catch(() => undefined);
    if (this.pc || this.closed) return;
    const ice = await this.iceServers();
    const pc = new RTCPeerConnection({ iceServers: ice.iceServers, iceTransportPolicy: ice.relayOnly ? 'relay' : 'all' });
    this.pc = pc;
    (window as unknown as { __fmkCall?: unknown }).__fmkCall = { pc, marks: this.marks };
    const remote = new MediaStream();
    this.set({ remote });
    pc.ontrack = (e) => {
      remote.addTrack(e.track);
      this.set({ remote });
    };
    pc.onicecandidate = (e) => {
      if (!e.candidate) return;
      const j = e.candidate.toJSON();
      void this.send({
        kind: 'ice',
        candidate: {
          candidate: j.candidate ?? '',
          sdpMid: j.sdpMid ?? null,
          sdpMLineIndex: j.sdpMLineIndex ?? null,
          usernameFragment: j.usernameFragment ?? null,
        },
      });
    };
    pc.onconnectionstatechange = () => this.connectionChanged(pc);
    for (const t of this.state.local?.getTracks() ?? []) pc.addTrack(t, this.state.local!);
    window.addEventListener('online', this.onOnline);
    this.statsTimer = setInterval(() => void this.readStats(), 2000);
    if (this.isCaller) await this.offer(false);
    for (const s of this.early.splice(0)) void this.receive(s);
  }

  private async offer(iceRestart: boolean): Promise<void> {
    const pc = this.pc;
    if (!pc || this.closed) return;
    const offer = await pc.createOffer({ iceRestart });
    await pc.setLocalDescription(offer);
    await this.send({ kind: 'offer', sdp: offer.sdp ?? '' });
  }

  /**
   * The path broke: 'failed' restarts at once; 'disconnected' after a grace period, if it has not
   * come back by then.
   */
  private connectionChanged(pc: RTCPeerConnection): void {
    const s = pc.connectionState;
    if (s === 'connected') {
      this.clearGrace();
      this.set({ connected: true, reconnecting: false, connectedAt: this.state.connectedAt ?? Date.now() });
    } else if (s === 'failed') {
      this.clearGrace();
      this.set({ reconnecting: true });
      void this.restartIce();
    } else if (s === 'disconnected') {
      this.set({ reconnecting: true });
      this.graceTimer ??= setTimeout(() => {
        this.graceTimer = null;
        if (pc.connectionState === 'disconnected' || pc.connectionState === 'failed') void this.restartIce();
      }, DISCONNECTED_GRACE_MS);
    }
  }

  private clearGrace(): void {
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
  }

  /**
   * After a network change on this side (the browser's 'online') or a broken path, from either
   * end: the caller offers again with fresh ICE credentials; the callee asks him to.
   */
  async restartIce(): Promise<void> {
    if (!this.pc || this.closed) return;
    const now = Date.now();
    if (now - this.lastRestartAt < RESTART_GAP_MS) return;
    this.lastRestartAt = now;
    if (this.pc.connectionState !== 'connected') this.set({ reconnecting: true });
    if (this.isCaller) await this.offer(true).catch(() => undefined);
    else await this.send({ kind: 'restart' });
  }

  private async send(signal: CallSignal): Promise<void> {
    // Over the live socket when it is up (no request per ICE candidate); by HTTP otherwise.
    if (sendLive({ type: 'call-signal', callId: this.callId, device: DEVICE, signal })) return;
    await call('POST /calls/:id/signal', { params: { id: this.callId }, body: { device: DEVICE, signal } }).catch(
      (err: unknown) => {
        if (err instanceof ApiError && err.status === 403) this.refused(err.status, err.message);
      },
    );
  }

  /** A signal from the other party, for this tab. An offer or answer may come without its SDP (read it then). */
  receive(signal: CallSignal | { kind: 'offer' | 'answer'; sdp: null }): Promise<void> {
    // One at a time, in arrival order: a candidate must not overtake the description it belongs to.
    this.chain = this.chain.then(() => this.handle(signal)).catch(() => undefined);
    return this.chain;
  }

  private async handle(signal: CallSignal | { kind: 'offer' | 'answer'; sdp: null }): Promise<void> {
    const pc = this.pc;
    if (this.closed) return;
    if (!pc) {
      this.early.push(signal);
      return;
    }
    if (signal.kind === 'ice') {
      if (pc.remoteDescription) await pc.addIceCandidate(signal.candidate).catch(() => undefined);
      else this.pendingIce.push(signal.candidate);
      return;
    }
    // The callee's network changed: he asks for the restart only the caller may offer.
    if (signal.kind === 'restart') {
      if (this.isCaller) await this.restartIce();
      return;
    }
    const sdp =
      signal.sdp ?? (await call('GET /calls/:id/description', { params: { id: this.callId }, query: { kind: signal.kind } })).sdp;
    if (!sdp) return;
    await pc.setRemoteDescription({ type: signal.kind, sdp });
    for (const c of this.pendingIce.splice(0)) await pc.addIceCandidate(c).catch(() => undefined);
    if (signal.kind === 'offer') {
      const answer = await pc.createAnswer();
      await pc.setLocalDescription(answer);
      await this.send({ kind: 'answer', sdp: answer.sdp ?? '' });
    }
  }

  /** Mute: the microphone's sender carries nothing (no packets), not merely silence. */
  async setMuted(muted: boolean): Promise<void> {
    const track = this.state.local?.getAudioTracks()[0];
    if (!track) return;
    track.enabled = !muted;
    const sender = this.pc?.getTransceivers().find((t) => t.receiver.track.kind === 'audio')?.sender;
    if (sender) await sender.replaceTrack(muted ? null : track);
    this.set({ muted });
  }

  setCameraOff(off: boolean): void {
    for (const t of this.state.local?.getVideoTracks() ?? []) t.enabled = !off;
    this.set({ cameraOff: off });
  }

  /** Front and back camera on a phone: a new video track replaces the old in the same connection. */
  async switchCamera(): Promise<void> {
    const local = this.state.local;
    if (!local || this.kind !== 'video') return;
    this.facing = this.facing === 'user' ? 'environment' : 'user';
    const fresh = await navigator.mediaDevices.getUserMedia({ video: { facingMode: this.facing } });
    const track = fresh.getVideoTracks()[0];
    if (!track) return;
    const old = local.getVideoTracks()[0];
    const sender = this.pc?.getSenders().find((s) => s.track?.kind === 'video');
    await sender?.replaceTrack(track);
    if (old) {
      local.removeTrack(old);
      old.stop();
    }
    track.enabled = !this.state.cameraOff;
    local.addTrack(track);
    this.set({ local: new MediaStream(local.getTracks()) });
  }

  setSpeaker(on: boolean): void {
    this.set({ speaker: on });
  }

  private async readStats(): Promise<void> {
    const pc = this.pc;
    if (!pc) return;
    const report = await pc.getStats();
    let rtt: number | null = null;
    let received = 0;
    let lost = 0;
    report.forEach(
      (s: {
        type: string;
        state?: string;
        nominated?: boolean;
        currentRoundTripTime?: number;
        packetsReceived?: number;
        packetsLost?: number;
      }) => {
        if (s.type === 'candidate-pair' && s.state === 'succeeded' && s.nominated && s.currentRoundTripTime !== undefined)
          rtt = s.currentRoundTripTime * 1000;
        if (s.type === 'inbound-rtp') {
          received += s.packetsReceived ?? 0;
          lost += s.packetsLost ?? 0;
        }
      },
    );
    const dRecv = received - this.lastIn.received;
    const dLost = Math.max(0, lost - this.lastIn.lost);
    this.lastIn = { received, lost };
    const lossRatio = dRecv + dLost > 0 ? dLost / (dRecv + dLost) : 0;
    this.set({ quality: callQuality({ rttMs: rtt, lossRatio }) });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.statsTimer) clearInterval(this.statsTimer);
    this.clearGrace();
    window.removeEventListener('online', this.onOnline);
    this.pc?.close();
    this.pc = null;
    for (const t of this.state.local?.getTracks() ?? []) t.stop();
    this.set({ connected: false });
  }
}
