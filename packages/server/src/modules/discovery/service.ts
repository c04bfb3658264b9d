import {
  type Actor,
  BOOST_TOP_MAX,
  type Clock,
  cellOf,
  DEFAULT_SETTINGS,
  type GridPage,
  type GridQuery,
  isImpossibleJump,
  LOCATION_UPDATE_MIN_INTERVAL_MS,
  type LocationBody,
  opensLeft,
  placedByArea,
  rulesOf,
  type Subject,
  snap,
  usesAdvancedFilters,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { requireAccess } from '../../platform/access.ts';
import type { Bus } from '../../platform/bus.ts';
import { AppError, badRequest, forbidden, tooManyRequests, unauthorized } from '../../platform/errors.ts';
import { chordForKm, newPlaceShift, shiftOf } from '../../platform/geo.ts';
import { announceLocationChange } from '../../platform/grid-cells.ts';
import { recordBoostViews } from '../boost/service.ts';
import type { CandidateCache } from './candidates.ts';
import { CursorSealer, type GridCursor } from './cursor.ts';
import type { GridMemory, HeldViewer } from './memory.ts';
import { toGridCell } from './present.ts';
import { boostedPage, givenPageQuery } from './repo/candidates.ts';
import {
  deactivateLocation,
  findGridViewer,
  findLocation,
  findOpenRelation,
  flagLocation,
  type GridFilters,
  type GridRow,
  type GridViewer,
  gridPageQuery,
  insertOpen,
  lockUserForLocation,
  lockViewerForOpen,
  nearestExtent,
  setLocationConsent,
  upsertLocation,
} from './repo.ts';
import { heldBoostedPage, heldPage } from './rules.ts';

export const LocationMessages = {
  consentRequired: 'Turn on location sharing to use your location.',
  tooSoon: 'You can update your location once every 30 seconds. Please wait a moment and try again.',
  impossibleJump: 'That location change is not possible so quickly.',
} as const;
export const GridMessages = {
  ageRange: 'The minimum age must not be above the maximum age.',
  badCursor: 'That page of the grid is no longer available. Reload the grid.',
} as const;

/**
 * A location not updated for this long is stale and leaves the grid (our decision: the spec's
 * 30-minute window is for "nearby now"; a grid of people who opened the app this month stays alive).
 */
export const GRID_LOCATION_MAX_AGE_DAYS = 30;
const KM_PER_MILE = 1.609344;
/** First look among this many nearest locations per row wanted. */
export const NEAREST_FACTOR = 4;
/** First look among this many listed candidates per row wanted (candidates.ts). */
const LISTED_FACTOR = 1.5;
/** Past this many nearest locations a short page is taken as the end (a safety stop). */
const MAX_NEAREST = 2_000_000;

/** The UTC day of an instant (YYYY-MM-DD): the unit of the clickable set and of the tie shuffle. */
export function dayOf(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/**
 * The tier limit on opening profiles (spec section 6: 5 / 25 / unlimited), enforced where a full
 * profile is read: profile.open, asked under the viewer's row lock so that two opens at once
 * cannot both take the last one, with the relation and the day's count read under that lock.
 * Opening a profile not opened today spends one of the day's opens, unless he is a match, a
 * conversation partner or a man who liked the viewer (core `openOutcome`). `subject` is the
 * profile's owner as the viewer's profile.view gate read him.
 */
export async function requireClickable(db: Db, actor: Actor, subject: Subject, now: Date): Promise<void> {
  if (actor.id === subject.id) return;
  const today = dayOf(now);
  await db.transaction().execute(async (trx) => {
    const viewer = await lockViewerForOpen(trx, actor.id);
    if (!viewer) throw unauthorized();
    const { relation, openedCount } = await findOpenRelation(trx, actor.id, subject.id, today);
    const locked: Subject = {
      ...subject,
      relation: {
        ...subject.relation,
        matched: relation.matched,
        conversation: relation.conversation,
        likedActor: relation.likedViewer,
        openedToday: relation.openedToday,
      },
    };
    const open = requireAccess(actor, 'profile.open', locked, { opensToday: openedCount });
    if (open.spends === 'open') await insertOpen(trx, actor.id, today, subject.id, openedCount, now);
  });
}

export interface DiscoveryDeps {
  db: Db;
  clock: Clock;
}

/** PUT/DELETE /me/location and the consent it needs (spec sections 3 "Location", 8). */
export class LocationService {
  constructor(
    private readonly deps: DiscoveryDeps & {
      /** Safety's location_warning for a flagged jump; never throws. */
      safety?: { impossibleJump(userId: string, at: Date): Promise<void> };
      /** Every instance's grid candidate lists hear of each move through it (platform/grid-cells). */
      bus?: Bus;
    },
  ) {}

  /**
   * Stores the centre of the position's cell, nothing finer, and lists him at his place (core
   * placeCentre, with the shift drawn at his first location and kept). Refused without consent, more often
   * than every 30 s (429), and for a jump faster than an airliner (422, flagged, not moved).
   */
  async update(userId: string, body: LocationBody): Promise<void> {
    const now = this.deps.clock.now();
    const point = snap(body);
    const cell = cellOf(body);
    // A flag is written, then the request refused: the refusal is thrown after the commit.
    const outcome = await this.deps.db.transaction().execute(async (trx) => {
      const user = await lockUserForLocation(trx, userId);
      if (!user) throw unauthorized();
      if (!user.location_sharing_consent) return 'no_consent' as const;
      const prev = await findLocation(trx, userId);
      const since = prev ? now.getTime() - prev.last_updated.getTime() : Number.POSITIVE_INFINITY;
      // Too soon: the outcome is the wait, in ms.
      if (since < LOCATION_UPDATE_MIN_INTERVAL_MS) return LOCATION_UPDATE_MIN_INTERVAL_MS - since;
      if (prev && isImpossibleJump({ lat: prev.lat, lng: prev.lng }, prev.last_updated, point, now)) {
        await flagLocation(trx, userId, now, 'impossible_jump');
        return 'jump' as const;
      }
      const safety = DEFAULT_SETTINGS.safety.locationSafety;
      const byArea = placedByArea({
        shareOnlyWithMatches: user.share_only_with_matches ?? safety.shareOnlyWithMatches,
        hideExactLocation: user.hide_exact_location ?? safety.hideExactLocation,
      });
      const shift = prev ? shiftOf(prev) : newPlaceShift();
      await upsertLocation(trx, {
        userId,
        ...point,
        row: cell.row,
        col: cell.col,
        shift,
        mode: user.current_mode,
        at: now,
        byArea,
      });
      return { moved: [prev, { ...point, shift_lat: shift.lat, shift_lng: shift.lng }] };
    });
    if (typeof outcome === 'object') await announceLocationChange(this.deps.bus, outcome.moved);
    if (outcome === 'no_consent') throw forbidden(LocationMessages.consentRequired, 'consent_required');
    if (typeof outcome === 'number') throw tooManyRequests(LocationMessages.tooSoon, outcome / 1000);
    if (outcome === 'jump') {
      await this.deps.safety?.impossibleJump(userId, now);
      throw new AppError(422, 'impossible_location', LocationMessages.impossibleJump);
    }
  }

  /** Consent on or off; off also takes the user out of every grid at once. */
  async setConsent(userId: string, consent: boolean): Promise<void> {
    const left = await this.deps.db.transaction().execute(async (trx) => {
      await setLocationConsent(trx, userId, consent, this.deps.clock.now());
      return consent ? undefined : await deactivateLocation(trx, userId);
    });
    await announceLocationChange(this.deps.bus, [left]);
  }

  /** Stop sharing. The cell centre (and place shift) is kept (inactive) so a return is still rate-limited and checked for jumps. */
  async stop(userId: string): Promise<void> {
    await announceLocationChange(this.deps.bus, [await deactivateLocation(this.deps.db, userId)]);
  }
}

type GridViewerRow = NonNullable<Awaited<ReturnType<typeof findGridViewer>>>;

/**
 * Who searches from where with which filters: the viewer's preferences under the query's
 * overrides, in km (imperial preferences mean miles). Exported so the benchmark runs the very
 * same SQL through the driver.
 */
export function gridSearch(
  viewerId: string,
  viewer: Pick<GridViewerRow, 'preferences' | 'current_mode'> & { lat: number; lng: number },
  q: GridQuery,
  now: Date,
  cursor: GridCursor | null,
): { v: GridViewer; filters: GridFilters } {
  const prefs = viewer.preferences;
  // showMe: every user is a man and no other gender is stored, so every choice shows everyone.
  const maxKm = (q.maxDistance ?? prefs.maxDistance) * (prefs.units === 'imperial' ? KM_PER_MILE : 1);
  const today = dayOf(now);
  return {
    v: { id: viewerId, lat: viewer.lat, lng: viewer.lng, mode: viewer.current_mode, seedDay: cursor?.seedDay ?? today, today },
    filters: {
      ageMin: q.ageMin ?? prefs.ageRange[0],
      ageMax: q.ageMax ?? prefs.ageRange[1],
      maxChord: chordForKm(maxKm),
      freshSince: new Date(now.getTime() - GRID_LOCATION_MAX_AGE_DAYS * 86_400_000),
      onlineOnly: q.onlineOnly,
      withPhotos: q.withPhotos,
      position: q.position,
      tribe: q.tribe,
      heightMin: q.heightMin,
      heightMax: q.heightMax,
    },
  };
}

/**
 * GET /grid as a pipeline (STYLE.md #5): candidates (the nearest locations) → load (their users)
 * → rules (repo.visibleInGrid) → present (present.ts). The first three are one statement: the
 * rules must run before the page's LIMIT, or pages would come back short and paging would skip.
 */
export class GridService {
  private readonly cursors: CursorSealer;
  /**
   * @param candidates the per-cell candidate lists (candidates.ts); without them every page walks
   * the index itself (the plain path, which the lists are tested against).
   * @param memory the grid's rules in memory (memory.ts): with the lists, a page's rules run over
   * what it holds instead of in a statement; without it they run in SQL over the lists' candidates.
   */
  constructor(
    private readonly deps: DiscoveryDeps,
    cursorSecret: string,
    private readonly candidates?: CandidateCache,
    private readonly memory?: GridMemory,
  ) {
    this.cursors = new CursorSealer(cursorSecret);
  }

  /**
   * The first n visible users after the cursor. Looks among the k nearest locations, k = 4n at
   * first (most nearby users are visible); a short page is the end only when those k were all
   * the locations in range, else k grows eightfold (sparse filters, a crowd of hidden users).
   */
  private async visibleNearest(
    db: Db,
    v: GridViewer,
    f: GridFilters,
    cursor: GridCursor | null,
    n: number,
    rel: HeldViewer | null,
  ): Promise<GridRow[]> {
    const listed = this.candidates ? await this.visibleListed(db, this.candidates, v, f, cursor, n, rel) : null;
    if (listed) return listed;
    for (let k = n * NEAREST_FACTOR; ; k *= 8) {
      const rows = await gridPageQuery(db, v, f, cursor, n, k).execute();
      if (rows.length >= n || k >= MAX_NEAREST) return rows;
      const extent = await nearestExtent(db, v, f, cursor, k);
      if (extent.count < k || extent.max_d === null || Number(extent.max_d) > f.maxChord) return rows;
    }
  }

  /**
   * The same page from the cell's candidate list: the rules run in SQL over k candidates the list
   * gives (k = 1.5n at first: no walk to amortise, so little headroom), k growing fourfold while
   * the page comes back short and the list has more in range. Null: the list cannot serve it.
   */
  private async visibleListed(
    db: Db,
    candidates: CandidateCache,
    v: GridViewer,
    f: GridFilters,
    cursor: GridCursor | null,
    n: number,
    rel: HeldViewer | null,
  ): Promise<GridRow[] | null> {
    const memory = this.memory;
    for (let k = Math.ceil(n * LISTED_FACTOR); ; k *= 4) {
      const pick = await candidates.pick(db, v, f, cursor, k);
      if (!pick) return null;
      const rows =
        pick.ids.length === 0
          ? []
          : memory && rel
            ? await heldPage(memory, db, v, f, rel, pick, n)
            : await givenPageQuery(db, v, f, pick, n).execute();
      if (rows.length >= n || pick.all) return rows;
    }
  }

  /** A page for an actor the caller has already loaded (the route asks pageFor). */
  async page(actor: Actor, q: GridQuery): Promise<GridPage> {
    // Memory brought up to now, on the pool: on PGlite the page's own connection would wait for itself.
    await this.memory?.sync(this.deps.db);
    return this.pageChecked(actor, q);
  }

  /**
   * The route's page: the signed-in user's actor from memory when it is held (read after the same
   * sync as the page's), else from `load` (platform/access.ts actorOf).
   */
  async pageFor(userId: string, q: GridQuery, load: () => Promise<Actor>): Promise<GridPage> {
    if (!this.memory) return this.pageChecked(await load(), q);
    await this.memory.sync(this.deps.db);
    const actor = await this.memory.actorOf(this.deps.db, userId);
    if (!actor) throw unauthorized();
    return this.pageChecked(actor, q);
  }

  /**
   * Without memory, one connection for the whole page: its queries run back to back, not queueing
   * again between them (on PGlite, one turn of its queue under load: issue 8, PGlite p95).
   */
  private pageChecked(actor: Actor, q: GridQuery): Promise<GridPage> {
    requireAccess(actor, 'users.browse');
    // The server refuses, whatever the client shows (spec section 6).
    if (usesAdvancedFilters(q)) requireAccess(actor, 'filters.advanced');
    // With memory a page mostly runs no statement: it takes no connection for itself.
    if (this.memory) return this.pageOn(this.deps.db, actor, q);
    return this.deps.db.connection().execute((db) => this.pageOn(db, actor, q));
  }

  /** The viewer as the page reads him: from memory when it is held (with his relations), else one statement. */
  private async viewerOf(db: Db, viewerId: string, today: string) {
    if (!this.memory) return { viewer: await findGridViewer(db, viewerId, today), rel: null };
    const rel = await this.memory.viewerOf(db, viewerId, today);
    return { viewer: rel ? { ...rel, unlocked_today: rel.opened.size } : undefined, rel };
  }

  private async pageOn(db: Db, actor: Actor, q: GridQuery): Promise<GridPage> {
    const viewerId = actor.id;
    const now = this.deps.clock.now();
    const today = dayOf(now);
    const { viewer, rel } = await this.viewerOf(db, viewerId, today);
    if (!viewer) throw unauthorized();
    const tier = actor.tier;
    const clickableLimit = rulesOf(actor).limits.clickableProfiles;
    const prefs = viewer.preferences;
    if ((q.ageMin ?? prefs.ageRange[0]) > (q.ageMax ?? prefs.ageRange[1])) throw badRequest(GridMessages.ageRange);
    if (viewer.lat === null || viewer.lng === null || !viewer.location_active) {
      return {
        items: [],
        nextCursor: null,
        clickableLimit,
        opensLeft: opensLeft(tier, viewer.unlocked_today ?? 0, clickableLimit),
        hasLocation: false,
      };
    }
    const cursor = q.cursor ? this.cursors.open(q.cursor, viewerId) : null;
    if (q.cursor && !cursor) throw badRequest(GridMessages.badCursor);

    const { v, filters } = gridSearch(viewerId, { ...viewer, lat: viewer.lat, lng: viewer.lng }, q, now, cursor);

    // Boost: the first page opens with the boosted men this viewer would see anyway (the same
    // visibility rules over a small query of the running boosts near him); later pages leave them
    // out, so no one shows twice.
    const top = Math.min(BOOST_TOP_MAX, q.limit);
    const boosted = cursor
      ? []
      : this.memory && rel
        ? await heldBoostedPage(this.memory, db, v, filters, rel, now, top)
        : await boostedPage(db, v, filters, now, top);
    const skip = new Set([...(cursor?.skip ?? []), ...boosted.map((r) => r.id)]);
    const rows = (await this.visibleNearest(db, v, filters, cursor, q.limit + 1 + skip.size, rel)).filter((r) => !skip.has(r.id));
    // A cell is locked only once the day's opens are spent and it would need one (core openOutcome).
    const left = opensLeft(tier, viewer.unlocked_today ?? 0, clickableLimit);

    const room = q.limit - boosted.length;
    const nearestPart = rows.slice(0, room);
    const last = nearestPart.at(-1);
    const more = rows.length > room;
    const units = prefs.units;
    if (boosted.length > 0)
      await recordBoostViews(
        db,
        viewerId,
        boosted.map((r) => r.id),
        now,
      );
    // With the whole first page boosted, the next one starts from the nearest (distances are >= 0).
    const from = last ? { d: Number(last.d), id: last.id } : { d: -1, id: '' };
    return {
      items: [...boosted, ...nearestPart].map((r) =>
        toGridCell(r, actor, { lat: v.lat, lng: v.lng }, units, left === 0 && !r.open),
      ),
      nextCursor: more
        ? this.cursors.seal({ viewerId, seedDay: v.seedDay, ...from, ...(skip.size ? { skip: [...skip] } : {}) })
        : null,
      clickableLimit,
      opensLeft: left,
      hasLocation: true,
    };
  }
}
