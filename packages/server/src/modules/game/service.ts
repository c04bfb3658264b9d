import {
  type Actor,
  type Clock,
  can,
  DAY,
  type LikesPage,
  type LiveServerEvent,
  type Match,
  Messages,
  matchPair,
  matchTypeOf,
  pendingCount,
  rulesOf,
  type SelectionBody,
  type SelectionResult,
  type StoredAction,
  superRemaining,
  utcDayStart,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { loadSubject, requireAccess } from '../../platform/access.ts';
import { type Bus, withEvents } from '../../platform/bus.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { userCard, type Viewer } from '../../platform/present.ts';
import type { NewLikeNotice, Notifier } from '../../platform/push.ts';
import { viewerOf } from '../../platform/settings/repo.ts';
import { unreadConversationCount } from '../messaging/service.ts';
import type { GameUserRow } from './repo.ts';
import * as repo from './repo.ts';

export interface GameServiceDeps {
  db: Db;
  clock: Clock;
  bus: Bus;
  /** Push (and mail) for a new match or like to a user with no open tab; optional in unit setups. */
  notifier?: Pick<Notifier, 'newMatch' | 'newLike'>;
}

/** Who-likes-you lists at most this many cards; the counts cover all. */
const LIKES_PAGE_LIMIT = 200;

type Emit = (to: readonly string[], event: LiveServerEvent) => void;

/**
 * Erasure of a user: his selections and matches go with his row (cascade); the requests others
 * made at him name him in a column without a foreign key, so they go here.
 */
export function forgetSelectionsAt(db: Db, userId: string): Promise<void> {
  return repo.deleteRequestsAt(db, userId);
}

/**
 * The game (spec sections 3 "Match", 4 "Match" and "Pending selections", 6): selections, matches
 * and who likes you. Writes run in one transaction; live events go out after it commits.
 */
export class GameService {
  constructor(private readonly deps: GameServiceDeps) {}

  /**
   * Applies one selection. Retried with the same clientId it returns the first result and
   * changes nothing. Kill is not stored. A new choice toward the same target replaces the old.
   */
  async select(actor: Actor, body: SelectionBody): Promise<SelectionResult> {
    const chooserId = actor.id;
    const matched: Array<Extract<LiveServerEvent, { type: 'match' }> & { to: string }> = [];
    const liked: NewLikeNotice[] = [];
    const result = await withEvents(this.deps.db, this.deps.bus, (trx, emit) =>
      this.selectIn(
        trx,
        (to, event) => {
          if (event.type === 'match' && event.new) for (const id of to) if (id !== chooserId) matched.push({ ...event, to: id });
          emit(to, event);
        },
        actor,
        body,
        liked,
      ),
    );
    // After the commit: the other one hears of a new match by push when he has no open tab.
    for (const m of matched) {
      void this.deps.notifier?.newMatch({
        toUserId: m.to,
        otherName: m.match.other.displayName,
        conversationId: m.match.conversationId,
      });
    }
    // ...and of a new like (who, when he may see who likes him; else how many wait).
    for (const l of liked) void this.deps.notifier?.newLike(l);
    return result;
  }

  private async selectIn(
    trx: Db,
    emit: Emit,
    actor: Actor,
    body: SelectionBody,
    liked: NewLikeNotice[],
  ): Promise<SelectionResult> {
    const now = this.deps.clock.now();
    const chooserId = actor.id;
    const { targetId, clientId } = body;
    const users = await repo.lockPair(trx, chooserId, targetId);
    // Under the pair's locks, and before a retry is answered: oneself, an unknown or inactive
    // target and a block either way are all 'User not found'.
    const subject = await loadSubject(trx, actor, targetId, now);
    requireAccess(actor, 'game.select', subject);
    const chooser = users.get(chooserId);
    const target = users.get(targetId);
    if (!chooser || !target) throw notFound(Messages.userNotFound);
    const dayStart = utcDayStart(now);
    const ctx = await repo.selectionContext(trx, {
      chooserId,
      targetId,
      clientId,
      dayStart,
      dayEnd: new Date(dayStart.getTime() + DAY),
    });
    if (ctx.earlier) {
      if (ctx.earlier.target_id !== targetId || ctx.earlier.action !== body.action) {
        throw conflict('This client id was already used for another selection.');
      }
      return ctx.earlier.result as SelectionResult;
    }

    const allowance = rulesOf(actor).limits.supersPerDay;
    let supersToday = ctx.supersToday;
    const record = async (result: SelectionResult, isSuper: boolean) => {
      await repo.saveRequest(trx, { chooserId, clientId, targetId, action: body.action, isSuper, result, at: now });
      return result;
    };

    // Kill moves on: nothing stored, nothing counted; the client hides the profile this session.
    if (body.action === 'kill') {
      return record({ action: 'kill', super: false, match: null, superRemaining: superRemaining(allowance, supersToday) }, false);
    }
    const action: StoredAction = body.action;
    // Only the choices of his app mode (400).
    requireAccess(actor, action === 'fuck' ? 'game.fuck' : 'game.marry', subject);

    const before = ctx.mine;
    // A super toward someone already super-chosen with the same action spends nothing.
    const spendsSuper = body.super && !(before?.action === action && before.is_super);
    if (spendsSuper) {
      requireAccess(actor, 'game.super', subject, { supersToday });
      supersToday += 1;
    }
    const isSuper = body.super || (before?.action === action && before.is_super);
    const changed = !before || before.action !== action || before.is_super !== isSuper;
    if (changed) await repo.upsertSelection(trx, { chooserId, targetId, action, isSuper, clientId, at: now });

    // Stats kept true (spec section 3 "stats"): likes received (split by the chooser's mode) and
    // matches on both sides; superLikes counts the super selections a user made.
    if (!before) {
      await repo.bumpStats(trx, targetId, {
        likes: 1,
        ...(chooser.current_mode === 'dating' ? { datingLikes: 1 } : { nowTaps: 1 }),
      });
    }
    if (spendsSuper) await repo.bumpStats(trx, chooserId, { superLikes: 1 });

    let match: Match | null = null;
    const reverse = ctx.theirs;
    if (reverse && changed) {
      const pair = matchPair(chooserId, targetId);
      const matchType = matchTypeOf(action, reverse.action);
      const userActions = { [chooserId]: action, [targetId]: reverse.action };
      const m = await repo.upsertMatch(trx, { pair, matchType, userActions, at: now });
      const conversationId = await repo.upsertMatchedConversation(trx, { pair, matchType, at: now });
      if (m.created) await repo.bumpStats(trx, [chooserId, targetId], { matches: 1 });
      // The target sees the chooser through his own content filter.
      const targetViewer = await viewerOf(trx, targetId);
      const seenBy = (other: GameUserRow, who: Viewer): Match => ({
        id: m.id,
        users: pair,
        matchType,
        userActions,
        matchedAt: now.toISOString(),
        createdAt: m.createdAt.toISOString(),
        conversationId,
        other: userCard(other, who),
      });
      match = seenBy(target, actor);
      emit([chooserId], { type: 'match', match, new: m.created });
      emit([targetId], { type: 'match', match: seenBy(chooser, targetViewer), new: m.created });
      // A new match takes each one's selection off the other's pending list.
      if (m.created) {
        emit([chooserId], { type: 'like', count: pendingCount(await repo.pendingCounts(trx, chooserId)) });
        emit([targetId], { type: 'like', count: pendingCount(await repo.pendingCounts(trx, targetId)) });
      }
    } else if (reverse) {
      match = (await repo.listMatches(trx, chooserId, actor, matchPair(chooserId, targetId)))[0] ?? null;
    } else if (changed) {
      const count = pendingCount(await repo.pendingCounts(trx, targetId));
      emit([targetId], { type: 'like', count });
      // A new like is news; the same man changing his pick is not.
      if (!before) liked.push({ toUserId: targetId, fromName: chooser.display_name, count });
    }
    if (spendsSuper) {
      emit([targetId], {
        type: 'super',
        kind: action === 'fuck' ? 'super-fuck' : 'super-marry',
        from: userCard(chooser, await viewerOf(trx, targetId)),
      });
    }

    return record({ action, super: isSuper, match, superRemaining: superRemaining(allowance, supersToday) }, spendsSuper);
  }

  listMatches(actor: Actor): Promise<Match[]> {
    requireAccess(actor, 'users.browse');
    return repo.listMatches(this.deps.db, actor.id, actor);
  }

  /** Who likes you (spec section 4, tier table of section 6): identities only for Premium and up. */
  async likes(actor: Actor): Promise<LikesPage> {
    requireAccess(actor, 'users.browse');
    const userId = actor.id;
    const db = this.deps.db;
    // Refused identities are not an error: Free sees the counts and blurred cards.
    const redacted = !can(actor, 'likes.seeIdentities').allowed;
    const [counts, rows] = await Promise.all([repo.pendingCounts(db, userId), repo.listPending(db, userId, LIKES_PAGE_LIMIT)]);
    return {
      count: pendingCount(counts),
      fuck: counts.fuck,
      marry: counts.marry,
      unseen: counts.unseen,
      redacted,
      items: rows.map((r) => ({
        // Free users get blurred cards: the identity never leaves the server.
        user: redacted ? null : { ...userCard({ ...r, id: r.chooser_id }, actor), age: r.age },
        action: r.action,
        super: r.is_super,
        at: r.updated_at.toISOString(),
        seen: r.seen_at !== null,
      })),
    };
  }

  markLikesSeen(userId: string): Promise<void> {
    return repo.markPendingSeen(this.deps.db, userId, this.deps.clock.now());
  }

  /** The Messages tab badge (spec section 2): unread conversations plus pending matches. */
  async badges(userId: string): Promise<{ messages: number }> {
    const [unread, counts] = await Promise.all([
      unreadConversationCount(this.deps.db, userId),
      repo.pendingCounts(this.deps.db, userId),
    ]);
    return { messages: unread + pendingCount(counts) };
  }
}
