import { randomUUID } from 'node:crypto';
import {
  type Actor,
  CATCH_UP_PAGE,
  type Clock,
  CONVERSATIONS_PAGE,
  COULD_NOT_FIND_CONVERSATION,
  type Conversation,
  type LiveServerEvent,
  MATCHES_ONLY_TEXT,
  type Message,
  type MessagePage,
  matchPair,
  messageLimitText,
  type Photo,
  SENDING_TOO_FAST_TEXT,
  type SendMessage,
  type Tier,
  TYPING_TIMEOUT_MS,
  utcDayStart,
  VERIFIED_CONTACTS_ONLY_TEXT,
  VERIFIED_MESSAGES_ONLY_TEXT,
} from '@fmk/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import { loadSubject, loadTierRules, requireAccess, requireActingOnOthers } from '../../platform/access.ts';
import { type Bus, withEvents } from '../../platform/bus.ts';
import { badRequest, conflict, forbidden, limitReached, notFound, tooManyRequests, unauthorized } from '../../platform/errors.ts';
import { loadTierLimits } from '../../platform/flags.ts';
import { reencodePhoto } from '../../platform/media/image.ts';
import type { SignedUrls } from '../../platform/media/signed-urls.ts';
import type { ContentHandler, Moderation } from '../../platform/moderation/moderation.ts';
import type { Notifier } from '../../platform/push.ts';
import type { Storage } from '../../platform/storage.ts';
import type { AlertsService } from '../safety/service.ts';
import { linkGuard } from './links.ts';
import { ChatPhotos } from './photos.ts';
import * as repo from './repo.ts';

/** The message with its link disabled for its receiver when link prevention applies (links.ts). */
const guarded = (m: Message, blocked: boolean): Message => (blocked ? { ...m, linkBlocked: true } : m);

export interface MessagingServiceDeps {
  db: Db;
  clock: Clock;
  bus: Bus;
  storage: Storage;
  /** Web Push: told of each new message after it commits (never of a retried send). */
  notifier?: Pick<Notifier, 'newMessage'> | undefined;
  log?: FastifyBaseLogger;
  /** Signs the chat photos' private URLs. */
  signedUrls: SignedUrls;
  /** Photo moderation: each message photo is scored after its upload answers. */
  moderation?: Pick<Moderation, 'enqueue'>;
  /** Safety: reads each sent text once it has committed (queued: never delays or fails the send). */
  screener?: Pick<AlertsService, 'screenMessage'> | undefined;
  /** Each member's send rate (MESSAGE_LIMIT_PER_MINUTE, a WindowLimiter): ms to wait, 0 to send now. */
  sendRate?: { take(memberId: string): number };
}

type Emit = (to: readonly string[], event: LiveServerEvent) => void;

/** fmk_send_message's FK403 reasons (his settings), as core's message.send words them. */
const REFUSED_BY_HIS_SETTINGS: Record<string, string> = {
  'matches only': MATCHES_ONLY_TEXT,
  'unverified contacts': VERIFIED_CONTACTS_ONLY_TEXT,
  'phone verification': VERIFIED_MESSAGES_ONLY_TEXT,
};

/** The API error for fmk_send_message's own SQLSTATEs (class FK); anything else is rethrown. */
function sendError(err: unknown, limits: Record<string, number>): unknown {
  const e = err as { code?: string; message?: string };
  switch (e.code) {
    case 'FK401':
      return unauthorized();
    case 'FK404':
      return notFound(COULD_NOT_FIND_CONVERSATION);
    case 'FK403':
      return forbidden(REFUSED_BY_HIS_SETTINGS[e.message ?? ''] ?? MATCHES_ONLY_TEXT);
    case 'FK409':
      return conflict('This client id was already used for another message.');
    case 'FK429':
      return limitReached(messageLimitText(e.message as Tier, limits[e.message as Tier]));
    case 'FK400':
      return badRequest('Choose a photo you uploaded.', { photoId: 'not your photo' });
    default:
      return err;
  }
}

/** A repeated typing=true within this window is not relayed again (light rate limit). */
const TYPING_REPEAT_MS = 1000;

/** How many of the user's conversations have unread messages (part of the Messages tab badge). */
export function unreadConversationCount(db: Db, userId: string): Promise<number> {
  return repo.unreadConversations(db, userId);
}

/** Each user's partners in conversations (the users who share one with him): his presence changes go to them. */
export function conversationPartners(db: Db, userIds: readonly string[]): Promise<Map<string, string[]>> {
  return repo.partnersOf(db, userIds);
}

/** The files of the photos the user sent in messages: his files, for whatever removes his data. */
export function messagePhotoFiles(db: Db, userId: string): Promise<string[]> {
  return repo.messagePhotoKeysOf(db, userId);
}

/**
 * Conversations and messages (spec sections 3, 4, 6, 7). Writes run in one transaction and
 * their live events go out after the commit (withEvents).
 */
export class MessagingService {
  /** `${conversationId}:${userId}` → typing until (ms), and the last relayed typing=true. Per instance. */
  private readonly typing = new Map<string, { until: number; relayedAt: number }>();

  /** The chat photos' private URLs and the route that serves them. */
  readonly photos: ChatPhotos;
  constructor(private readonly deps: MessagingServiceDeps) {
    this.photos = new ChatPhotos(deps);
  }

  private withTyping(c: Omit<Conversation, 'typing'>): Conversation {
    const t = this.typing.get(`${c.id}:${c.other.uid}`);
    return { ...c, typing: Boolean(t && t.until > this.deps.clock.now().getTime()) };
  }

  async list(actor: Actor): Promise<Conversation[]> {
    requireAccess(actor, 'users.browse');
    const rows = await repo.listConversations(this.deps.db, actor.id, { limit: CONVERSATIONS_PAGE, who: actor });
    return rows.map((c) => this.withTyping(c));
  }

  /**
   * One conversation. Here and below, the conversation's other member (active, not blocked either
   * way) is checked by the query that finds it, so the access check asks the actor's half alone.
   */
  get(actor: Actor, id: string): Promise<Conversation> {
    requireActingOnOthers(actor, 'conversation.read');
    return this.conversation(actor, id, this.deps.db);
  }

  private async conversation(actor: Actor, id: string, db: Db): Promise<Conversation> {
    const [c] = await repo.listConversations(db, actor.id, { id, limit: 1, who: actor });
    if (!c) throw notFound(COULD_NOT_FIND_CONVERSATION);
    return this.withTyping(c);
  }

  /** Opens the conversation with `userId`, creating it for matched users (or a Platinum member). */
  async open(actor: Actor, userId: string): Promise<Conversation> {
    const me = actor.id;
    return withEvents(this.deps.db, this.deps.bus, async (trx, emit: Emit) => {
      // Oneself 400; unknown, inactive or blocked either way 404 'User not found'; neither an
      // existing conversation nor a match, below Platinum: 403 with the upgrade text.
      requireAccess(actor, 'conversation.open', await loadSubject(trx, actor, userId, this.deps.clock.now()));
      const [a, b] = matchPair(me, userId);
      const existing = await repo.conversationIdOfPair(trx, a, b);
      if (existing) {
        await repo.setDeletedFor(trx, existing, a === me ? 'a' : 'b', false);
        return this.conversation(actor, existing, trx);
      }
      const matchType = await repo.matchTypeOfPair(trx, a, b);
      const id = randomUUID();
      await repo.insertConversation(trx, { id, pair: [a, b], matchType, at: this.deps.clock.now() });
      emit([me, userId], { type: 'conversation', conversationId: id, removed: false });
      return this.conversation(actor, id, trx);
    });
  }

  /** Delete for me (spec "deletedFor"): hidden from my list until a new message arrives. */
  async deleteForMe(actor: Actor, id: string): Promise<void> {
    requireActingOnOthers(actor, 'conversation.read');
    const me = actor.id;
    await withEvents(this.deps.db, this.deps.bus, async (trx, emit: Emit) => {
      const c = await repo.ownConversation(trx, id, me);
      if (!c) throw notFound(COULD_NOT_FIND_CONVERSATION);
      await repo.setDeletedFor(trx, id, c.user_a === me ? 'a' : 'b', true);
      emit([me], { type: 'conversation', conversationId: id, removed: true });
    });
  }

  /** Messages of one conversation, oldest first, paging back by seq. Fetching marks mine delivered. */
  async page(actor: Actor, id: string, q: { before?: number | undefined; limit: number }): Promise<MessagePage> {
    requireActingOnOthers(actor, 'conversation.read');
    const me = actor.id;
    const db = this.deps.db;
    const c = await repo.participantConversation(db, id, me);
    if (!c) throw notFound(COULD_NOT_FIND_CONVERSATION);
    const { rows, hasMore } = await repo.messagePage(db, id, q.before, q.limit);
    await this.deliveredByFetch(me, rows);
    const receipts = await this.receiptsOf(actor, [c.otherId]);
    const blocked = await linkGuard(db, rows);
    const view = await this.photos.viewFor(me);
    return { messages: rows.map((r) => guarded(repo.toMessage(r, me, view, receipts), blocked(r))), hasMore };
  }

  /** Catch-up after a reconnect: every message to or from me after `after`, ascending. */
  async since(actor: Actor, after: number): Promise<MessagePage> {
    requireActingOnOthers(actor, 'conversation.read');
    const me = actor.id;
    const { rows, hasMore } = await repo.messagesSince(this.deps.db, me, after, CATCH_UP_PAGE);
    await this.deliveredByFetch(me, rows);
    const receivers = [...new Set(rows.filter((r) => r.sender_id === me).map((r) => r.receiver_id))];
    const receipts = await this.receiptsOf(actor, receivers);
    const blocked = await linkGuard(this.deps.db, rows);
    const view = await this.photos.viewFor(me);
    return { messages: rows.map((r) => guarded(repo.toMessage(r, me, view, receipts), blocked(r))), hasMore };
  }

  /** Whether the sender may see 'read' on his messages to each receiver. */
  private async receiptsOf(sender: Actor, receivers: string[]): Promise<(receiverId: string) => boolean> {
    if (!(sender.rules ?? (await loadTierRules(this.deps.db, sender.id))?.rules)?.has.readReceipts) return () => false;
    const settings = await repo.readReceiptSettings(this.deps.db, receivers);
    return (r) => settings.get(r) ?? true;
  }

  private async deliveredByFetch(me: string, rows: repo.MessageRow[]): Promise<void> {
    const upTo = new Map<string, number>();
    for (const r of rows) {
      if (r.receiver_id === me && r.delivered_at === null)
        upTo.set(r.conversation_id, Math.max(upTo.get(r.conversation_id) ?? 0, r.seq));
    }
    if (upTo.size === 0) return;
    const at = this.deps.clock.now();
    await this.markDelivered([...upTo].map(([conversationId, seq]) => ({ receiverId: me, conversationId, upTo: seq })));
    for (const r of rows) if (r.receiver_id === me && r.delivered_at === null) r.delivered_at = at;
  }

  /** Delivered up to `upTo` (the recipient's socket got it, or he fetched it); tells the senders. */
  async markDelivered(marks: readonly repo.DeliveryMark[]): Promise<void> {
    const done = await repo.markDelivered(this.deps.db, marks, this.deps.clock.now());
    if (done.length > 0)
      await this.deps.bus.publishBatch(
        done.map((d) => [[d.senderId], { type: 'delivered', conversationId: d.conversationId, upTo: d.upTo }] as const),
      );
  }

  /**
   * Sends a message. Idempotent by clientId: a retry returns the first message (`created` false)
   * and writes nothing. The daily tier limit counts new messages only. The checks and writes run
   * in the database as one statement (repo.sendMessage: fmk_send_message): one round trip.
   */
  async send(actor: Actor, conversationId: string, body: SendMessage): Promise<{ message: Message; created: boolean }> {
    // The conversation, its other member, blocks and the daily limit are fmk_send_message's,
    // which answers a retried clientId before them.
    requireActingOnOthers(actor, 'message.send');
    const me = actor.id;
    const wait = this.deps.sendRate?.take(me) ?? 0;
    if (wait > 0) throw tooManyRequests(SENDING_TOO_FAST_TEXT, wait / 1000);
    const { db, bus, clock } = this.deps;
    const now = clock.now();
    const day = utcDayStart(now).toISOString().slice(0, 10);
    const photoId = body.type === 'photo' ? (body.photoId ?? '') : null;
    let row: repo.SentMessageRow | undefined;
    const limits = await loadTierLimits(this.deps.db, 'messagesPerDay');
    try {
      row = await repo.sendMessage(db, { id: randomUUID(), senderId: me, conversationId, ...body, photoId, now, day, limits });
    } catch (err) {
      throw sendError(err, limits);
    }
    if (!row) throw new Error('fmk_send_message returned no row');
    const blocked = await linkGuard(db, [row]);
    if (!row.created) {
      const receipts = await this.receiptsOf(actor, [row.receiver_id]);
      return { message: guarded(repo.toMessage(row, me, this.photos.senderView(me), receipts), blocked(row)), created: false };
    }
    const message = guarded(
      repo.toMessage(row, me, this.photos.senderView(me), () => false),
      blocked(row),
    );
    if (row.photo_id === null) await bus.publish([me, row.receiver_id], { type: 'message', message });
    else {
      // Each member's copy carries a photo URL signed for him (and none where his filtering withholds it).
      const view = await this.photos.viewFor(row.receiver_id);
      const theirs = guarded(
        repo.toMessage(row, row.receiver_id, view, () => false),
        blocked(row),
      );
      await bus.publishBatch([
        [[me], { type: 'message', message }],
        [[row.receiver_id], { type: 'message', message: theirs }],
      ]);
    }
    // An open tab sees the event live (and shows a toast): push only to users with none.
    if (this.deps.notifier && row.other_online === false) {
      try {
        await this.deps.notifier.newMessage({
          toUserId: row.receiver_id,
          fromName: row.sender_name,
          text: message.type === 'photo' ? message.content || 'Sent a photo' : message.content,
          conversationId,
        });
      } catch (err) {
        this.deps.log?.warn({ err }, 'message notifier failed');
      }
    }
    if (this.deps.screener && message.type === 'text')
      await this.deps.screener.screenMessage({
        id: message.id,
        senderId: me,
        receiverId: row.receiver_id,
        text: message.content,
      });
    return { message, created: true };
  }

  /** Marks messages to me read up to `upTo`; the sender hears of it where read receipts apply. */
  async read(actor: Actor, conversationId: string, upTo: number): Promise<void> {
    requireActingOnOthers(actor, 'conversation.read');
    const me = actor.id;
    await withEvents(this.deps.db, this.deps.bus, async (trx, emit: Emit) => {
      const c = await repo.participantConversation(trx, conversationId, me);
      if (!c) throw notFound(COULD_NOT_FIND_CONVERSATION);
      const marked = await repo.markRead(trx, c, me, upTo, this.deps.clock.now());
      emit([me], { type: 'conversation', conversationId, removed: false });
      if (marked.length === 0) return;
      const top = Math.max(...marked);
      const sender = await loadTierRules(trx, c.otherId);
      if (!sender) return;
      const allows = (await repo.readReceiptSettings(trx, [me])).get(me) ?? true;
      // Read receipts are a tier feature of the sender's (spec section 6), read from the flag store.
      if (sender.rules.has.readReceipts && allows) emit([c.otherId], { type: 'read', conversationId, upTo: top });
    });
  }

  /** Relays typing to the other participant; clients turn it off after TYPING_TIMEOUT_MS. */
  async setTyping(actor: Actor, conversationId: string, typing: boolean): Promise<void> {
    requireActingOnOthers(actor, 'message.send');
    const me = actor.id;
    const c = await repo.participantConversation(this.deps.db, conversationId, me);
    if (!c) throw notFound(COULD_NOT_FIND_CONVERSATION);
    const key = `${conversationId}:${me}`;
    const now = this.deps.clock.now().getTime();
    const prev = this.typing.get(key);
    if (typing) {
      this.typing.set(key, { until: now + TYPING_TIMEOUT_MS, relayedAt: now });
      if (prev && prev.until > now && now - prev.relayedAt < TYPING_REPEAT_MS) {
        this.typing.set(key, { until: now + TYPING_TIMEOUT_MS, relayedAt: prev.relayedAt });
        return;
      }
    } else {
      this.typing.delete(key);
    }
    if (this.typing.size > 10_000) for (const [k, v] of this.typing) if (v.until <= now) this.typing.delete(k);
    await this.deps.bus.publish([c.otherId], { type: 'typing', conversationId, userId: me, typing });
  }

  /** A photo for a message: the profile photo pipeline (WebP, no metadata), outside the profile limit. */
  async addPhoto(me: string, upload: Buffer): Promise<Photo> {
    const { db, storage, clock } = this.deps;
    const encoded = await reencodePhoto(upload);
    const id = randomUUID();
    // Outside photos/: /files/ never serves it; ChatPhotos does, to the conversation's members only.
    const storageKey = `chat/${id}.webp`;
    await storage.put(storageKey, encoded.data, 'image/webp');
    try {
      const { width, height } = encoded;
      await repo.insertMessagePhoto(db, {
        id,
        userId: me,
        storageKey,
        width,
        height,
        bytes: encoded.data.length,
        at: clock.now(),
      });
    } catch (err) {
      await storage.delete(storageKey).catch(() => undefined);
      throw err;
    }
    // Scored in the background: a message sent before the model answers carries sensitive: false
    // in its live event; every read after that carries the flag. No caption exists yet to read.
    this.deps.moderation?.enqueue({
      contentType: 'chat_photo',
      contentId: id,
      userId: me,
      storageKey,
      image: encoded.data,
      text: '',
    });
    return { id, url: this.photos.url(id, me), width: encoded.width, height: encoded.height, sensitive: false };
  }

  /**
   * What moderation does to a chat photo (registered with platform/moderation): explicit, it is
   * marked sensitive and still delivered; staff approving changes nothing; rejected, its file is
   * removed (the message stays, without its picture).
   */
  moderationHandler(): ContentHandler {
    return {
      reviewNudity: false,
      flag: async (trx, item) => {
        await repo.markMessagePhotoSensitive(trx, item.content_id);
      },
      approve: async () => {},
      reject: async (_trx, item) => (item.storage_key ? [item.storage_key] : []),
    };
  }
}
