import type { Alert } from './alerts.ts';
import type { Call, CallSignal } from './calls.ts';
import type { Match } from './discovery.ts';
import type { Message } from './messaging.ts';
import type { PhotoHiddenReason } from './photo-filter.ts';
import type { NotificationKind } from './settings.ts';
import type { Tier } from './tiers.ts';

/**
 * The live channel (GET /api/v1/live, a WebSocket; docs/architecture.md "Events, start to end").
 * Browsers cannot set headers on a WebSocket, so the first message authenticates:
 *   client → {type:'auth', token}      within LIVE_AUTH_TIMEOUT_MS, else close 4401
 *   server → {type:'ready', uid}       then events for that user
 *   client → {type:'ping'}             server → {type:'pong'} (the client's heartbeat)
 * The server also sends WebSocket protocol pings and drops sockets that stop answering.
 */
export const LIVE_PATH = '/api/v1/live';
export const LIVE_AUTH_TIMEOUT_MS = 5000;
/** Close codes: bad or missing auth (reconnect after refreshing the token). */
export const LIVE_CLOSE_UNAUTHORIZED = 4401;
/**
 * The socket sent more frames a second than the server allows (LIVE_FRAMES_PER_SECOND): closed
 * with 1008 (policy violation); the client reconnects after its backoff. A frame over the size
 * limit (LIVE_MAX_FRAME_KB) is closed with 1009 (message too big).
 */
export const LIVE_CLOSE_TOO_MANY_FRAMES = 1008;

export type LiveClientMessage =
  | { type: 'auth'; token: string }
  | { type: 'ping' }
  /** A call's offer, answer or ICE candidate (calls.ts liveCallSignal); refused ones answer 'call-error'. */
  | { type: 'call-signal'; callId: string; device: string; signal: CallSignal };

export interface LiveUserRef {
  uid: string;
  displayName: string | null;
  photoURL: string | null;
  /** The receiver's content filter withholds or blurs his photo (photo-filter.ts). */
  photoHidden?: PhotoHiddenReason;
  photoBlurred?: true;
  /** His verified badge (phone.ts). */
  verified: boolean;
}

/**
 * Events pushed to a user. `match` is the Match as that user sees it (`other` is the other one).
 * `quiet`, on an event that notifies (a message to him, a new match, a super, a safety alert):
 * his in-app switch for that kind (or the in-app channel) is off; the screens still update from
 * it, no toast is shown. The live channel sets it from his settings as each event goes out.
 */
export type LiveServerEvent =
  | { type: 'ready'; uid: string }
  | { type: 'pong' }
  /** A match created (new: true) or changed because one of the two changed his choice (new: false). */
  | { type: 'match'; match: Match; new: boolean; quiet?: true }
  /** A super fuck / super marry toward this user (the super-fuck / super-marry toast). */
  | { type: 'super'; kind: 'super-fuck' | 'super-marry'; from: LiveUserRef; quiet?: true }
  /** The pending selections count changed (who likes you, the Messages badge). */
  | { type: 'like'; count: number }
  /** An event too large to send: refetch what `of` names. */
  | { type: 'refetch'; of: string }
  /** A message committed, to both participants (every tab of each); status as first sent. */
  | { type: 'message'; message: Message; quiet?: true }
  /** The recipient's device got messages of this conversation up to seq `upTo` (to the sender). */
  | { type: 'delivered'; conversationId: string; upTo: number }
  /** The recipient read up to seq `upTo` (to the sender, only where read receipts apply). */
  | { type: 'read'; conversationId: string; upTo: number }
  /** The other participant started or stopped typing; clients turn it off after TYPING_TIMEOUT_MS. */
  | { type: 'typing'; conversationId: string; userId: string; typing: boolean }
  /** A conversation changed for this user (unread, deleted, created): refetch it; `removed` when it is gone. */
  | { type: 'conversation'; conversationId: string; removed: boolean }
  /** A conversation partner came online or went offline (on any instance). */
  | { type: 'presence'; userId: string; isOnline: boolean }
  /** Staff answered one of the member's conversations with support. */
  | { type: 'support'; threadId: string; subject: string }
  /** A safety alert was raised for this member (the Safety centre's list and a toast). */
  | { type: 'alert'; alert: Alert; quiet?: true }
  /** His effective tier changed (a payment, a cancellation, a renewal): refresh the session and billing. */
  | { type: 'tier'; tier: Tier }
  /** A call of this user began ringing, was answered or ended (to every tab of both). */
  | { type: 'call'; call: Call }
  /**
   * The other party's offer, answer or ICE candidate, for the tab named `device`. An offer or
   * answer too large for the bus comes with sdp null: read it from GET /calls/:id/description.
   */
  | { type: 'call-signal'; callId: string; device: string; signal: CallSignal | { kind: 'offer' | 'answer'; sdp: null } }
  /** A signal this tab sent on the socket was refused (the message HTTP would have answered). */
  | { type: 'call-error'; callId: string; status: number; message: string };

/**
 * The notification kind an event is news of for user `uid` (his in-app switches decide its
 * toast), or null: a message he received, a new match, a super toward him, a safety alert.
 */
export function liveNotificationKind(event: { type: string; [k: string]: unknown }, uid: string): NotificationKind | null {
  switch (event.type) {
    case 'message':
      return (event.message as { receiverId?: unknown } | undefined)?.receiverId === uid ? 'messages' : null;
    case 'match':
      return event.new === true ? 'matches' : null;
    case 'super':
      return 'likes';
    case 'alert':
      return 'safety';
    default:
      return null;
  }
}
