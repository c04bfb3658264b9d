import { vi } from 'vitest';

/**
 * Stand-ins for the browser's WebRTC and media APIs (not ours, and absent from the test DOM): they
 * record what the call engine asks of them, and a test moves the connection's state by hand. The
 * real ones are exercised by the calls journey in Chromium (e2e/calls.e2e.ts).
 */
export class FakeTrack {
  enabled = true;
  stopped = false;
  constructor(
    readonly kind: 'audio' | 'video',
    readonly label = `${kind}-track`,
  ) {}
  stop(): void {
    this.stopped = true;
  }
}

export class FakeMediaStream {
  private tracks: FakeTrack[];
  constructor(tracks: FakeTrack[] = []) {
    this.tracks = [...tracks];
  }
  getTracks(): FakeTrack[] {
    return [...this.tracks];
  }
  getAudioTracks(): FakeTrack[] {
    return this.tracks.filter((t) => t.kind === 'audio');
  }
  getVideoTracks(): FakeTrack[] {
    return this.tracks.filter((t) => t.kind === 'video');
  }
  addTrack(t: FakeTrack): void {
    this.tracks.push(t);
  }
  removeTrack(t: FakeTrack): void {
    this.tracks = this.tracks.filter((x) => x !== t);
  }
}

export interface FakeSender {
  track: FakeTrack | null;
  replaceTrack: ReturnType<typeof vi.fn>;
}

export class FakePeerConnection {
  static last: FakePeerConnection | null = null;
  connectionState: RTCPeerConnectionState = 'new';
  remoteDescription: RTCSessionDescriptionInit | null = null;
  onconnectionstatechange: (() => void) | null = null;
  ontrack: ((e: unknown) => void) | null = null;
  onicecandidate: ((e: unknown) => void) | null = null;
  /** The options of each offer made: `iceRestart` tells a restart. */
  readonly offers: Array<RTCOfferOptions | undefined> = [];
  readonly answers: number[] = [];
  readonly senders: FakeSender[] = [];
  closed = false;
  constructor(readonly config: RTCConfiguration) {
    FakePeerConnection.last = this;
  }
  /** The browser moving the connection to `s`. */
  move(s: RTCPeerConnectionState): void {
    this.connectionState = s;
    this.onconnectionstatechange?.();
  }
  async createOffer(options?: RTCOfferOptions): Promise<RTCSessionDescriptionInit> {
    this.offers.push(options);
    return { type: 'offer', sdp: `v=0 offer ${this.offers.length}` };
  }
  async createAnswer(): Promise<RTCSessionDescriptionInit> {
    this.answers.push(this.answers.length + 1);
    return { type: 'answer', sdp: `v=0 answer ${this.answers.length}` };
  }
  async setLocalDescription(): Promise<void> {}
  async setRemoteDescription(d: RTCSessionDescriptionInit): Promise<void> {
    this.remoteDescription = d;
  }
  async addIceCandidate(): Promise<void> {}
  addTrack(track: FakeTrack): FakeSender {
    const sender: FakeSender = {
      track,
      replaceTrack: vi.fn(async (t: FakeTrack | null) => {
        sender.track = t;
      }),
    };
    this.senders.push(sender);
    return sender;
  }
  getSenders(): FakeSender[] {
    return this.senders;
  }
  getTransceivers(): Array<{ sender: FakeSender; receiver: { track: { kind: string } } }> {
    return this.senders.map((s) => ({ sender: s, receiver: { track: { kind: s.track?.kind ?? 'audio' } } }));
  }
  async getStats(): Promise<Map<string, unknown>> {
    return new Map();
  }
  close(): void {
    this.closed = true;
  }
}

/** Puts the fakes in place of RTCPeerConnection and MediaStream (undone by vi.unstubAllGlobals). */
export function stubWebRtc(): void {
  FakePeerConnection.last = null;
  vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
  vi.stubGlobal('MediaStream', FakeMediaStream);
}
