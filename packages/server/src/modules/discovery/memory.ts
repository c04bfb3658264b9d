import type { Actor } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { type ActorRow, findActorRow } from '../../platform/access/repo.ts';
import { actorFromRow } from '../../platform/access.ts';
import {
  type HeldBoost,
  type HeldProfile,
  heldBoosts,
  heldProfilesQuery,
  heldRelations,
  heldViewerQuery,
  pruneChanges,
  readChanges,
} from './repo/memory.ts';

/**
 * The grid's rules in memory (docs/decisions/0017). The candidate lists (candidates.ts) say who is
 * near; what the rules read of those men (their profile, settings and place shift), of the viewer
 * (preferences, mode, location, and how every other user stands to him: blocks, matches,
 * conversations, who chose him, whom he opened today) and the running boosts are held here, so that
 * a page runs no statement of its own once they are. The viewer as access rules read him (his
 * actor, platform/access.ts) is held too, for the grid's route.
 *
 * Freshness: triggers log the users every relevant write touches (migration 20261130T0100). Before
 * each page, `sync` reads the log's rows since the last read and drops what they name. A read's
 * snapshot starts after the page did, so a page sees every write committed before it: the same
 * answer as the grid's statement, not an eventually equal one. Concurrent pages share reads.
 *
 * A fill that was running when a change came is used for its page but not kept (as the lists do).
 * What is never kept, because the log does not record the write that would change it: a man
 * without a settings row or a location, a viewer or an actor without a location, an actor without
 * a settings row.
 */

/** How a viewer stands to others, and his own row, for one day. */
export interface HeldViewer {
  preferences: HeldViewerRow['preferences'];
  current_mode: 'dating' | 'now';
  lat: number | null;
  lng: number | null;
  location_active: boolean | null;
  day: string;
  blocked: Set<string>;
  matched: Set<string>;
  talked: Set<string>;
  liked: Set<string>;
  opened: Set<string>;
}
type HeldViewerRow = NonNullable<Awaited<ReturnType<ReturnType<typeof heldViewerQuery>['executeTakeFirst']>>>;

/** Men held at most (~0.5 kB each); the oldest go first. */
export const MAX_PROFILES = 400_000;
/** Viewers held at most. */
export const MAX_VIEWERS = 100_000;
/** Changes remembered for fills that were running when they came. */
const RECENT = 256;
/** The log keeps rows this long; an instance that has not read it for half of that drops everything. */
const LOG_KEEP_MS = 10 * 60_000;
const PRUNE_EVERY_MS = 60_000;
/** The key under which a change remembers that a boost was written (no user id has this form). */
const BOOSTS = '*boosts';

export class GridMemory {
  private readonly profiles = new Map<string, HeldProfile>();
  private readonly viewers = new Map<string, HeldViewer>();
  private readonly actors = new Map<string, ActorRow>();
  private boosts: { from: number; list: HeldBoost[]; ids: Set<string> } | null = null;
  private watermark: string | null = null;
  private lastRead = 0;
  private lastPrune = 0;
  private current: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  /** Changes applied so far, and the last few (null: everything was dropped). */
  private seq = 0;
  private readonly recent: Array<{ seq: number; ids: Set<string> | null }> = [];

  constructor(private readonly limits: { profiles?: number; viewers?: number } = {}) {}

  /**
   * Brings what is held up to a snapshot taken after this call: reads started earlier are not
   * enough, so a caller that arrives during one waits for the next (one at most queued, shared).
   */
  sync(db: Db): Promise<void> {
    if (this.next) return this.next;
    if (!this.current) {
      this.current = this.read(db).finally(() => {
        this.current = null;
      });
      return this.current;
    }
    this.next = this.current
      .catch(() => undefined)
      .then(() => {
        this.next = null;
        return this.sync(db);
      });
    return this.next;
  }

  private async read(db: Db): Promise<void> {
    const started = Date.now();
    // The log's older rows may be pruned: all held from before them goes.
    if (this.lastRead && started - this.lastRead > LOG_KEEP_MS / 2) this.dropAll();
    const rows = await readChanges(db, this.watermark);
    this.lastRead = started;
    const ids = new Set<string>();
    for (const r of rows) {
      if (r.user_id === null) continue;
      if (r.user_id === '*') {
        this.dropAll();
        continue;
      }
      ids.add(r.user_id);
      // A boost written is remembered under BOOSTS too: it may name no man held yet.
      if (r.what === 'boosts') ids.add(BOOSTS);
      if (r.what === 'boosts' || this.boosts?.ids.has(r.user_id)) this.boosts = null;
    }
    if (ids.size > 0) {
      for (const id of ids) {
        this.profiles.delete(id);
        this.viewers.delete(id);
        this.actors.delete(id);
      }
      this.remember(ids);
    }
    this.watermark = rows[0]?.xmin ?? this.watermark;
    if (started - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = started;
      // In the background: a page does not wait for it, and a failed prune is retried a minute later.
      pruneChanges(db, LOG_KEEP_MS).catch(() => undefined);
    }
  }

  private dropAll(): void {
    this.profiles.clear();
    this.viewers.clear();
    this.actors.clear();
    this.boosts = null;
    this.remember(null);
  }

  private remember(ids: Set<string> | null): void {
    this.seq += 1;
    this.recent.push({ seq: this.seq, ids });
    if (this.recent.length > RECENT) this.recent.shift();
  }

  /** Whether a change to one of these users (or to all) came after `since`. */
  private changedSince(since: number, ids: readonly string[]): boolean {
    if (this.seq === since) return false;
    if (this.seq - since > this.recent.length) return true;
    return this.recent.some((c) => c.seq > since && (c.ids === null || ids.some((id) => c.ids!.has(id))));
  }

  /** The men among `ids` as the rules read them; those missing from the result do not exist. */
  async profilesOf(db: Db, ids: readonly string[]): Promise<Map<string, HeldProfile>> {
    const out = new Map<string, HeldProfile>();
    const missing: string[] = [];
    for (const id of ids) {
      const p = this.profiles.get(id);
      if (p) out.set(id, p);
      else missing.push(id);
    }
    if (missing.length === 0) return out;
    const since = this.seq;
    const rows = await heldProfilesQuery(db, missing).execute();
    const keep = !this.changedSince(since, missing);
    const max = this.limits.profiles ?? MAX_PROFILES;
    for (const r of rows) {
      out.set(r.id, r);
      if (keep && r.settings_of !== null && r.shift_lat !== null) this.profiles.set(r.id, r);
    }
    evict(this.profiles, max);
    return out;
  }

  /** The viewer's row and relations for `day`; null when he does not exist. */
  async viewerOf(db: Db, viewerId: string, day: string): Promise<HeldViewer | null> {
    const held = this.viewers.get(viewerId);
    if (held && held.day === day) return held;
    const since = this.seq;
    const row = await heldViewerQuery(db, viewerId).executeTakeFirst();
    if (!row) return null;
    const viewer: HeldViewer = {
      ...row,
      lat: row.lat === null ? null : Number(row.lat),
      lng: row.lng === null ? null : Number(row.lng),
      day,
      blocked: new Set(),
      matched: new Set(),
      talked: new Set(),
      liked: new Set(),
      opened: new Set(),
    };
    const sets = { b: viewer.blocked, m: viewer.matched, c: viewer.talked, l: viewer.liked, u: viewer.opened };
    for (const r of await heldRelations(db, viewerId, day)) sets[r.k].add(r.other);
    if (row.lat !== null && !this.changedSince(since, [viewerId])) {
      this.viewers.set(viewerId, viewer);
      evict(this.viewers, this.limits.viewers ?? MAX_VIEWERS);
    }
    return viewer;
  }

  /** The signed-in user as an actor (platform/access.ts loadActor); undefined when he does not exist. */
  async actorOf(db: Db, userId: string): Promise<Actor | undefined> {
    let row = this.actors.get(userId);
    if (!row) {
      const since = this.seq;
      row = await findActorRow(db, userId);
      if (!row) return undefined;
      if (row.settings_row !== null && row.has_location && !this.changedSince(since, [userId])) {
        this.actors.set(userId, row);
        evict(this.actors, this.limits.viewers ?? MAX_VIEWERS);
      }
    }
    return actorFromRow(db, row);
  }

  /** The boosts running at `now`, each with his location. */
  async boostsAt(db: Db, now: Date): Promise<HeldBoost[]> {
    const t = now.getTime();
    let held = this.boosts;
    if (!held || t < held.from) {
      const since = this.seq;
      const list = await heldBoosts(db, now);
      const ids = new Set(list.map((b) => b.user_id));
      held = { from: t, list, ids };
      // Kept unless a boost was written meanwhile, or one of these men moved.
      if (!this.changedSince(since, [BOOSTS, ...ids])) this.boosts = held;
    }
    return held.list.filter((b) => b.started <= t && b.ends > t);
  }

  /** What is held: for the benchmark's memory figure and tests. */
  stats(): { profiles: number; viewers: number; actors: number; boosts: number } {
    return {
      profiles: this.profiles.size,
      viewers: this.viewers.size,
      actors: this.actors.size,
      boosts: this.boosts?.list.length ?? 0,
    };
  }
}

/** The oldest entries go until the map holds at most `max`. */
function evict(map: Map<string, unknown>, max: number): void {
  for (const key of map.keys()) {
    if (map.size <= max) return;
    map.delete(key);
  }
}
