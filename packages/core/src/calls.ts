import { z } from 'zod';
import { cardPhotoFilterFields } from './photo-filter.ts';

/**
 * One-to-one video and voice calls, all under /api/v1:
 *   GET  /calls/ice-servers          → IceConfig (STUN/TURN by configuration; TURN credentials minted per user)
 *   POST /calls {userId, kind, device} → Call (201: ringing; a busy callee answers ended/busy at once)
 *   GET  /calls/:id                  → Call (participants only)
 *   POST /calls/:id/accept {device}  → Call (the callee, while ringing)
 *   POST /calls/:id/decline          → Call (the callee, while ringing)
 *   POST /calls/:id/hangup           → Call (either, ringing or active: a caller's hang-up while ringing is a missed call)
 *   POST /calls/:id/signal {device, signal} → 204 (offer, answer, ICE candidate, restart ask to the other party's device)
 * Live events: {type:'call', call} on each change of state, {type:'call-signal', callId, signal}.
 * Media never touches the server: the browsers connect peer to peer (DTLS-SRTP).
 */
export const CALL_KINDS = ['video', 'voice'] as const;
export type CallKind = (typeof CALL_KINDS)[number];
export const CALL_STATES = ['ringing', 'active', 'ended'] as const;
export type CallState = (typeof CALL_STATES)[number];
/**
 * How an ended call ended: nobody answered in time or the caller gave up (missed), the callee
 * said no (declined), he was on another call (busy), talked and hung up (finished), a block
 * ended it (blocked), or a participant's tabs all went away during the call (dropped).
 */
export const CALL_OUTCOMES = ['missed', 'declined', 'busy', 'finished', 'blocked', 'dropped'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** Ringing ends as a missed call after this long, so a call nobody answers does not ring on for ever. */
export const CALL_RING_TIMEOUT_MS = 45_000;
/** Call attempts a caller may start in any rolling hour: more than a person dials, few enough to stop a ringing script. */
export const CALL_ATTEMPTS_PER_HOUR = 30;
export const CALL_ATTEMPT_WINDOW_MS = 60 * 60 * 1000;
/** Lifetime of minted TURN credentials when TURN_TTL_SECONDS is not set. */
export const TURN_DEFAULT_TTL_SECONDS = 3600;

export const CallMessages = {
  busy: 'He is on another call.',
  youAreBusy: 'You are already on a call.',
  tooMany: `You have started ${CALL_ATTEMPTS_PER_HOUR} calls in the last hour. Try again later.`,
  notRinging: 'This call is no longer ringing.',
  notActive: 'This call is not connected.',
  notYourDevice: 'This call is answered on another device.',
} as const;

const kindWord = (kind: CallKind) => (kind === 'video' ? 'video' : 'voice');
const Capital = (w: string) => w[0]!.toUpperCase() + w.slice(1);

/**
 * The chat line a call leaves ('Missed video call', 'Video call, 4 min'). A finished
 * call under a minute shows seconds ('Video call, 40 s'); longer ones round to whole minutes.
 * Blocked calls leave none (the block deletes the conversation).
 */
export function callLineText(kind: CallKind, outcome: CallOutcome, durationMs: number): string | null {
  const word = kindWord(kind);
  switch (outcome) {
    case 'missed':
    case 'busy':
      return `Missed ${word} call`;
    case 'declined':
      return `Declined ${word} call`;
    case 'finished':
    case 'dropped': {
      const s = Math.max(0, Math.round(durationMs / 1000));
      return s < 60 ? `${Capital(word)} call, ${s} s` : `${Capital(word)} call, ${Math.round(s / 60)} min`;
    }
    case 'blocked':
      return null;
  }
}

/** Whether `n` attempts within the last hour leave room for one more. */
export function mayAttemptCall(attemptsLastHour: number): boolean {
  return attemptsLastHour < CALL_ATTEMPTS_PER_HOUR;
}

/** When a call ringing since `createdAt` stops ringing. */
export function ringDeadline(createdAt: Date): Date {
  return new Date(createdAt.getTime() + CALL_RING_TIMEOUT_MS);
}

/** The mm:ss (or h:mm:ss) of a call's timer. */
export function formatCallTimer(ms: number): string {
  const t = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const s = String(t % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** A browser tab's id for calls: the call rings on every tab and goes on on the one that answers. */
export const callDevice = z.string().min(8).max(64);

export const startCallBody = z.object({
  userId: z.string().min(1).max(64),
  kind: z.enum(CALL_KINDS).default('video'),
  device: callDevice,
});
export type StartCall = z.infer<typeof startCallBody>;
export const acceptCallBody = z.object({ device: callDevice });

/** SDP is a few KB; a bound keeps a client from pushing megabytes through the bus. */
export const MAX_SDP_CHARS = 30_000;
export const callSignalSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('offer'), sdp: z.string().min(1).max(MAX_SDP_CHARS) }),
  z.object({ kind: z.literal('answer'), sdp: z.string().min(1).max(MAX_SDP_CHARS) }),
  z.object({
    kind: z.literal('ice'),
    candidate: z.object({
      candidate: z.string().max(1000),
      sdpMid: z.string().max(64).nullable().optional(),
      sdpMLineIndex: z.number().int().min(0).max(64).nullable().optional(),
      usernameFragment: z.string().max(256).nullable().optional(),
    }),
  }),
  /**
   * The callee asks for an ICE restart (his network changed, or the path broke): the caller, who
   * makes every offer, answers it with an ICE-restart offer.
   */
  z.object({ kind: z.literal('restart') }),
]);
export type CallSignal = z.infer<typeof callSignalSchema>;
export const signalBody = z.object({ device: callDevice, signal: callSignalSchema });
/** The same signal sent on the live socket instead of POST /calls/:id/signal (core live.ts). */
export const liveCallSignal = signalBody.extend({ type: z.literal('call-signal'), callId: z.string().min(1).max(64) });

export const callSchema = z.object({
  id: z.string(),
  kind: z.enum(CALL_KINDS),
  state: z.enum(CALL_STATES),
  outcome: z.enum(CALL_OUTCOMES).nullable(),
  callerId: z.string(),
  calleeId: z.string(),
  /** The conversation the call's chat line goes to. */
  conversationId: z.string().nullable(),
  /** The other participant as the viewer sees him. */
  other: z.object({
    uid: z.string(),
    displayName: z.string().nullable(),
    photoURL: z.string().nullable(),
    ...cardPhotoFilterFields,
  }),
  callerDevice: z.string(),
  calleeDevice: z.string().nullable(),
  createdAt: z.string(),
  /** When ringing stops by itself. */
  ringUntil: z.string(),
  answeredAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});
export type Call = z.infer<typeof callSchema>;

export const iceServerSchema = z.object({
  urls: z.array(z.string()),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export const iceConfigSchema = z.object({
  iceServers: z.array(iceServerSchema),
  ttlSeconds: z.number().int().nullable(),
  /** Connect through the TURN relay only (CALL_RELAY_ONLY): the peers never see each other's address. */
  relayOnly: z.boolean(),
});
export type IceConfig = z.infer<typeof iceConfigSchema>;

/** The TURN REST API username (coturn's use-auth-secret): `<expiry unix seconds>:<user id>`. */
export function turnUsername(nowMs: number, ttlSeconds: number, userId: string): string {
  return `${Math.floor(nowMs / 1000) + ttlSeconds}:${userId}`;
}

export type CallQuality = 'good' | 'fair' | 'poor';
/**
 * The connection quality shown during a call, from the browser's getStats: round-trip time of the
 * selected candidate pair and the share of inbound packets lost since the last reading.
 */
export function callQuality(s: { rttMs: number | null; lossRatio: number }): CallQuality {
  const rtt = s.rttMs ?? 0;
  if (s.lossRatio > 0.08 || rtt > 600) return 'poor';
  if (s.lossRatio > 0.02 || rtt > 250) return 'fair';
  return 'good';
}
