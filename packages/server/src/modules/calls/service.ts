import { createHmac, randomUUID } from 'node:crypto';
import {
  type Actor,
  CALL_ATTEMPT_WINDOW_MS,
  CALL_RING_TIMEOUT_MS,
  type Call,
  CallMessages,
  type CallOutcome,
  type CallSignal,
  type Clock,
  COULD_NOT_FIND_CONVERSATION,
  callLineText,
  type IceConfig,
  type LiveServerEvent,
  type Message,
  mayAttemptCall,
  ringDeadline,
  type StartCall,
  turnUsername,
} from '@fmk/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import { loadSubject, requireAccess, requireActingOnOthers } from '../../platform/access.ts';
import { type Bus, withEvents } from '../../platform/bus.ts';
import type { Config } from '../../platform/config.ts';
import { type AppError, conflict, notFound, tooManyRequests } from '../../platform/errors.ts';
import { userCard } from '../../platform/present.ts';
import type { Notifier } from '../../platform/push.ts';
import { viewersOf } from '../../platform/settings/repo.ts';
import * as repo from './repo.ts';

export interface CallsServiceDeps {
  db: Db;
  clock: Clock;
  bus: Bus;
  config: Pick<Config, 'calls'>;
  notifier?: Pick<Notifier, 'incomingCall'> | undefined;
  log?: FastifyBaseLogger | undefined;
}

type Emit = (to: readonly string[], event: LiveServerEvent) => void;

/**
 * An offer or answer larger than this goes over the bus without its SDP (PostgreSQL's NOTIFY
 * payload must stay under 8000 bytes with the envelope); the tab reads it from the call row.
 */
const INLINE_SDP_BYTES = 6000;
/** A call survives a participant without any open tab this long (a reload, a network switch). */
export const CALL_ABANDON_GRACE_MS = 60_000;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The call as `viewer` sees it: the other participant's card. */
function present(row: repo.CallRow, viewer: string, cards: Map<string, Call['other']>): Call {
  const otherId = row.caller_id === viewer ? row.callee_id : row.caller_id;
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    outcome: row.outcome,
    callerId: row.caller_id,
    calleeId: row.callee_id,
    conversationId: row.conversation_id,
    other: cards.get(otherId) ?? { uid: otherId, displayName: null, photoURL: null },
    callerDevice: row.caller_device,
    calleeDevice: row.callee_device,
    createdAt: row.created_at.toISOString(),
    ringUntil: ringDeadline(row.created_at).toISOString(),
    answeredAt: iso(row.answered_at),
    endedAt: iso(row.ended_at),
  };
}

/** Each participant's card, as the other one (the only one who sees it) may see it. */
async function cardsOf(db: Db, row: repo.CallRow): Promise<Map<string, Call['other']>> {
  const ids = [row.caller_id, row.callee_id];
  const [rows, viewers] = await Promise.all([repo.cards(db, ids), viewersOf(db, ids)]);
  return new Map(
    rows.map((r) => {
      const seer = viewers.get(r.id === row.caller_id ? row.callee_id : row.caller_id)!;
      const { verified: _, ...card } = userCard(r, seer);
      return [r.id, card];
    }),
  );
}

/** Tells both participants (every tab) the call's new state, each as he sees it. */
async function announce(db: Db, emit: Emit, row: repo.CallRow): Promise<Map<string, Call['other']>> {
  const cards = await cardsOf(db, row);
  for (const uid of [row.caller_id, row.callee_id]) emit([uid], { type: 'call', call: present(row, uid, cards) });
  return cards;
}

/**
 * Ends the call (in the caller's transaction): the record's outcome and, for every outcome but a
 * block, the line in the pair's chat, sent live to both like any message.
 */
async function finish(trx: Db, emit: Emit, row: repo.CallRow, outcome: CallOutcome, now: Date): Promise<repo.CallRow> {
  const ended = await repo.endCall(trx, row.id, outcome, now);
  await announce(trx, emit, ended);
  const duration = ended.answered_at ? now.getTime() - ended.answered_at.getTime() : 0;
  const text = callLineText(ended.kind, outcome, duration);
  if (text && ended.conversation_id) {
    const id = randomUUID();
    const line = await repo.insertCallLine(trx, {
      id,
      callId: ended.id,
      conversationId: ended.conversation_id,
      callerId: ended.caller_id,
      calleeId: ended.callee_id,
      content: text,
      at: now,
      unread: outcome === 'missed' || outcome === 'busy',
    });
    if (line) {
      const message: Message = {
        id,
        seq: line.seq,
        conversationId: ended.conversation_id,
        senderId: ended.caller_id,
        receiverId: ended.callee_id,
        clientId: `call:${ended.id}`,
        type: 'call',
        content: text,
        timestamp: now.toISOString(),
        status: 'sent',
        metadata: {},
      };
      emit([ended.caller_id, ended.callee_id], { type: 'message', message });
    }
  }
  return ended;
}

/**
 * Ends every open call between the two: a block must end an ongoing call, not only refuse new ones.
 * Called by safety's block after it commits.
 */
export async function endCallsBetween(deps: Pick<CallsServiceDeps, 'db' | 'bus' | 'clock'>, a: string, b: string): Promise<void> {
  await withEvents(deps.db, deps.bus, async (trx, emit: Emit) => {
    await repo.lockUsers(trx, [a, b]);
    for (const row of await repo.openCallsOfPair(trx, a, b)) await finish(trx, emit, row, 'blocked', deps.clock.now());
  });
}

/**
 * Calls: the server keeps each call's state (ringing, active, ended) in the database,
 * so that every instance answers alike, and relays the browsers' signalling to the other party
 * through the bus. It never sees media.
 */
export class CallsService {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly deps: CallsServiceDeps) {}

  /**
   * The ICE servers for this user: STUN as configured; TURN with credentials of the TURN REST
   * API (coturn's use-auth-secret): username `expiry:uid`, credential base64(HMAC-SHA1(secret, username)).
   */
  iceConfig(actor: Actor): IceConfig {
    const { iceServers, turnSecret, turnTtlSeconds, relayOnly } = this.deps.config.calls;
    const stun = iceServers.filter((u) => u.startsWith('stun'));
    const turn = iceServers.filter((u) => u.startsWith('turn'));
    const out: IceConfig['iceServers'] = stun.length ? [{ urls: stun }] : [];
    if (turn.length && turnSecret) {
      const username = turnUsername(this.deps.clock.now().getTime(), turnTtlSeconds, actor.id);
      const credential = createHmac('sha1', turnSecret).update(username).digest('base64');
      out.push({ urls: turn, username, credential });
    }
    return { iceServers: out, ttlSeconds: turn.length && turnSecret ? turnTtlSeconds : null, relayOnly };
  }

  /** Starts a call: rings the callee on every tab (a push when he has none), or answers busy. */
  async start(actor: Actor, body: StartCall): Promise<Call> {
    const { db, bus, clock } = this.deps;
    const now = clock.now();
    // Tier, match or conversation, blocks and inactive users: core's call.start.
    requireAccess(actor, 'call.start', await loadSubject(db, actor, body.userId, now));
    const me = actor.id;
    const result = await withEvents(db, bus, async (trx, emit: Emit) => {
      await repo.lockUsers(trx, [me, body.userId]);
      await this.expireRinging(trx, emit);
      if (!mayAttemptCall(await repo.attemptsSince(trx, me, new Date(now.getTime() - CALL_ATTEMPT_WINDOW_MS))))
        throw tooManyRequests(CallMessages.tooMany);
      if (await repo.openCallOf(trx, me)) throw conflict(CallMessages.youAreBusy);
      const row: repo.CallRow = {
        id: randomUUID(),
        caller_id: me,
        callee_id: body.userId,
        conversation_id: await repo.conversationOfPair(trx, me, body.userId),
        kind: body.kind,
        state: 'ringing',
        outcome: null,
        caller_device: body.device,
        callee_device: null,
        offer_sdp: null,
        answer_sdp: null,
        created_at: now,
        answered_at: null,
        ended_at: null,
      };
      await repo.insertCall(trx, row);
      if (await repo.openCallOf(trx, body.userId).then((c) => c && c.id !== row.id)) {
        const ended = await finish(trx, emit, row, 'busy', now);
        return { row: ended, cards: await cardsOf(trx, ended), push: null };
      }
      const cards = await announce(trx, emit, row);
      const callee = (await repo.cards(trx, [body.userId]))[0];
      return { row, cards, push: callee && !callee.is_online ? cards.get(me) : null };
    });
    if (result.row.state === 'ringing') {
      this.scheduleExpiry();
      if (result.push && this.deps.notifier)
        await this.deps.notifier
          .incomingCall({
            toUserId: body.userId,
            fromName: result.push.displayName,
            kind: body.kind,
            conversationId: result.row.conversation_id,
            callId: result.row.id,
          })
          .catch((err: unknown) => this.deps.log?.warn({ err }, 'call push failed'));
    }
    return present(result.row, me, result.cards);
  }

  /** A participant's call, or 404 (another's call looks like none). */
  async get(actor: Actor, id: string): Promise<Call> {
    requireActingOnOthers(actor, 'call.start');
    const row = await repo.callById(this.deps.db, id);
    if (!row || (row.caller_id !== actor.id && row.callee_id !== actor.id)) throw notFound(COULD_NOT_FIND_CONVERSATION);
    return present(row, actor.id, await cardsOf(this.deps.db, row));
  }

  /** The user's call still ringing or active (a tab that opens later finds it), or null. */
  async current(actor: Actor): Promise<Call | null> {
    const row = await repo.openCallOf(this.deps.db, actor.id);
    if (!row) return null;
    if (row.state === 'ringing' && ringDeadline(row.created_at) <= this.deps.clock.now()) {
      await this.sweep();
      return null;
    }
    return present(row, actor.id, await cardsOf(this.deps.db, row));
  }

  /** The offer or answer stored for the call (when its bus event could not carry it). */
  async description(actor: Actor, id: string, kind: 'offer' | 'answer'): Promise<{ sdp: string | null }> {
    const row = await repo.callById(this.deps.db, id);
    if (!row || (row.caller_id !== actor.id && row.callee_id !== actor.id)) throw notFound(COULD_NOT_FIND_CONVERSATION);
    return { sdp: kind === 'offer' ? row.offer_sdp : row.answer_sdp };
  }

  accept(actor: Actor, id: string, device: string): Promise<Call> {
    return this.change(actor, id, async (trx, emit, row, now) => {
      if (row.callee_id !== actor.id) return notFound(COULD_NOT_FIND_CONVERSATION);
      // A call that rang out just now was ended above; that end must commit.
      if (row.state !== 'ringing') return conflict(CallMessages.notRinging);
      const answered = await repo.answerCall(trx, row.id, device, now);
      await announce(trx, emit, answered);
      return answered;
    });
  }

  decline(actor: Actor, id: string): Promise<Call> {
    return this.change(actor, id, async (trx, emit, row, now) => {
      if (row.callee_id !== actor.id) return notFound(COULD_NOT_FIND_CONVERSATION);
      if (row.state !== 'ringing') return conflict(CallMessages.notRinging);
      return finish(trx, emit, row, 'declined', now);
    });
  }

  /** Hangs up: a caller giving up while it rings is a missed call, the callee's is a decline; an ended call stays as it is. */
  hangup(actor: Actor, id: string): Promise<Call> {
    return this.change(actor, id, async (trx, emit, row, now) => {
      if (row.state === 'ended') return row;
      if (row.state === 'active') return finish(trx, emit, row, 'finished', now);
      return finish(trx, emit, row, row.caller_id === actor.id ? 'missed' : 'declined', now);
    });
  }

  /**
   * Relays an offer, answer, ICE candidate or restart ask to the other party's answering tab. Only
   * between the two tabs of an active call, and never across a block. The call is the caller's
   * feature: each of his signals asks core's `call.signal`, and a caller whose tier lost video
   * calls (a downgrade mid-call) is refused with the upgrade text and his call ends for both, as a
   * hang-up would. The callee may be on any tier.
   */
  async signal(actor: Actor, id: string, device: string, signal: CallSignal): Promise<void> {
    requireActingOnOthers(actor, 'call.start');
    const { db, bus } = this.deps;
    const row = await repo.callById(db, id);
    if (!row || (row.caller_id !== actor.id && row.callee_id !== actor.id)) throw notFound(COULD_NOT_FIND_CONVERSATION);
    const isCaller = row.caller_id === actor.id;
    const otherId = isCaller ? row.callee_id : row.caller_id;
    if (row.state !== 'active') throw conflict(CallMessages.notActive);
    if ((isCaller ? row.caller_device : row.callee_device) !== device) throw conflict(CallMessages.notYourDevice);
    if (await repo.isBlocked(db, actor.id, otherId)) throw notFound(COULD_NOT_FIND_CONVERSATION);
    if (isCaller) {
      try {
        requireAccess(actor, 'call.signal');
      } catch (err) {
        await this.hangup(actor, id);
        throw err;
      }
    }
    const to = (isCaller ? row.callee_device : row.caller_device) ?? '';
    let sent: LiveServerEvent = { type: 'call-signal', callId: id, device: to, signal };
    if (signal.kind === 'offer' || signal.kind === 'answer') {
      await repo.storeDescription(db, id, signal.kind, signal.sdp);
      if (Buffer.byteLength(signal.sdp) > INLINE_SDP_BYTES)
        sent = { type: 'call-signal', callId: id, device: to, signal: { kind: signal.kind, sdp: null } };
    }
    await bus.publish([otherId], sent);
  }

  /**
   * Ends calls that rang out (45 s on the injected clock) and calls left without a tab on one side;
   * every instance runs this, each row ends once.
   */
  async sweep(): Promise<void> {
    await withEvents(this.deps.db, this.deps.bus, async (trx, emit: Emit) => {
      await this.expireRinging(trx, emit);
      await this.dropAbandoned(trx, emit);
    });
  }

  /** Runs the sweep when the newest ringing call would time out, besides the periodic one. */
  private scheduleExpiry(): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.sweep().catch((err: unknown) => this.deps.log?.warn({ err }, 'call sweep failed'));
    }, CALL_RING_TIMEOUT_MS + 50);
    t.unref();
    this.timers.add(t);
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private async expireRinging(trx: Db, emit: Emit): Promise<void> {
    const now = this.deps.clock.now();
    const due = await repo.ringingSince(trx, new Date(now.getTime() - CALL_RING_TIMEOUT_MS));
    for (const row of due) await finish(trx, emit, row, 'missed', now);
  }

  /** Ends calls whose participant has had no open tab for a while (closed mid-call): 'dropped'. */
  private async dropAbandoned(trx: Db, emit: Emit): Promise<void> {
    const now = this.deps.clock.now();
    for (const row of await repo.abandonedSince(trx, new Date(now.getTime() - CALL_ABANDON_GRACE_MS)))
      await finish(trx, emit, row, 'dropped', now);
  }

  /** One change of a call: both users' lock, the row locked, rang-out calls ended first. */
  private async change(
    actor: Actor,
    id: string,
    fn: (trx: Db, emit: Emit, row: repo.CallRow, now: Date) => Promise<repo.CallRow | AppError>,
  ): Promise<Call> {
    requireActingOnOthers(actor, 'call.start');
    const { db, bus, clock } = this.deps;
    const out = await withEvents(db, bus, async (trx, emit: Emit) => {
      const peek = await repo.callById(trx, id);
      if (!peek || (peek.caller_id !== actor.id && peek.callee_id !== actor.id)) throw notFound(COULD_NOT_FIND_CONVERSATION);
      await repo.lockUsers(trx, [peek.caller_id, peek.callee_id]);
      await this.expireRinging(trx, emit);
      const row = await repo.callById(trx, id, true);
      if (!row) throw notFound(COULD_NOT_FIND_CONVERSATION);
      const now = clock.now();
      const otherId = row.caller_id === actor.id ? row.callee_id : row.caller_id;
      if (row.state !== 'ended' && (await repo.isBlocked(trx, actor.id, otherId))) {
        await finish(trx, emit, row, 'blocked', now);
        return { error: notFound(COULD_NOT_FIND_CONVERSATION) } as const;
      }
      const changed = await fn(trx, emit, row, now);
      if (!('state' in changed)) return { error: changed } as const;
      return { row: changed, cards: await cardsOf(trx, changed) } as const;
    });
    if ('error' in out) throw out.error;
    return present(out.row, actor.id, out.cards);
  }
}
