import type { LatLng } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import type { Bus, LiveEvent } from '../../platform/bus.ts';
import { geoPoint, viewerGeo } from '../../platform/geo.ts';
import { GRID_CELLS_TOPIC, isGridCellsEvent } from '../../platform/grid-cells.ts';
import { cellCandidates, type GivenCandidates } from './repo/candidates.ts';
import type { GridFilters, GridKey, GridViewer } from './repo.ts';

/**
 * Per-cell candidate lists for the grid. Every viewer searches from his cell's centre, so the
 * viewers of one cell share one list of the shared, fresh locations nearest that centre (the same
 * walk as the grid's, filled once from SQL, grown when a viewer pages past it). A page takes its
 * candidates from the list in the viewer's own order (his tie pivot, see platform/geo.ts), and the
 * grid's rules then run over them in SQL: the list holds only where people are, so profile,
 * visibility, block and mode changes need no invalidation, and only location writes do
 * (announced on the bus, platform/grid-cells.ts, so every instance drops what they touch).
 *
 * Exactness: a list keeps each stored `geo` point's four coordinates as read, and a viewer's
 * distance is computed as the cube extension computes `<->` (the sum of squares in coordinate
 * order, then the root): the same doubles, so the same order, cursor and maxDistance cut.
 */

/** The fill's tie coordinate: the middle of [0, 1), so |viewer distance - fill distance| <= 0.5. */
const FILL_TIE = 0.5;
/** |d(viewer) - d(fill)| <= |FILL_TIE - viewer tie| <= 0.5, plus a margin for rounding. */
const SLACK = 0.501;
/** A first list: a page of 60 with room for the hidden and filtered, and a few pages more. */
export const FIRST_LIST = 512;
/** Past this a list is not grown: the page is served by the plain walk (wide, sparse searches). */
export const MAX_LIST = 32_768;
/** All lists together keep at most this many locations (~100 bytes each: eight doubles and the id); the least used go first. */
export const MAX_ENTRIES = 1_000_000;
/** Recent invalidations, for fills that were running when they came. */
const RECENT = 256;

interface CellList {
  /** The cell centre's x, y, z. */
  cx: number;
  cy: number;
  cz: number;
  ids: string[];
  lat: Float64Array;
  lng: Float64Array;
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  w: Float64Array;
  /** Distance from (centre, FILL_TIE), ascending: the list's order. */
  fill: Float64Array;
  updated: Float64Array;
  /** Fewer came back than were asked: the list is every shared, fresh location there is. */
  complete: boolean;
  freshSince: number;
}

/** The cube extension's `<->` between two 4-D points, operation for operation. */
export function cubeDistance(
  ax: number,
  ay: number,
  az: number,
  aw: number,
  bx: number,
  by: number,
  bz: number,
  bw: number,
): number {
  let s = 0;
  let t = ax - bx;
  s += t * t;
  t = ay - by;
  s += t * t;
  t = az - bz;
  s += t * t;
  t = aw - bw;
  s += t * t;
  return Math.sqrt(s);
}

/** The coordinates of a cube literal as platform/geo writes it (shortest round-trip doubles). */
export function coords(literal: string): number[] {
  return literal.slice(1, -1).split(',').map(Number);
}

const keyOf = (p: LatLng) => `${p.lat},${p.lng}`;

export interface Pick extends GivenCandidates {
  /** Fewer than asked: these are all the candidates in range after the cursor. */
  all: boolean;
}

export class CandidateCache {
  private readonly lists = new Map<string, CellList>();
  private readonly filling = new Map<string, Promise<CellList>>();
  private entries = 0;
  /** Invalidations received so far, and the last few (a fill checks those that came while it ran). */
  private seq = 0;
  private readonly recent: Array<{ seq: number; xyz: number[][] }> = [];
  private unsubscribe: (() => void) | null = null;

  private readonly firstList: number;
  private readonly maxList: number;
  private readonly maxEntries: number;

  /** Sizes other than the defaults: tests use tiny lists, so that every list grows, is cut and falls back. */
  constructor(opts: { firstList?: number; maxList?: number; maxEntries?: number } = {}) {
    this.firstList = opts.firstList ?? FIRST_LIST;
    this.maxList = opts.maxList ?? MAX_LIST;
    this.maxEntries = opts.maxEntries ?? MAX_ENTRIES;
  }

  /** Listens for location changes on the bus (every instance). */
  listen(bus: Bus): void {
    this.unsubscribe = bus.subscribe(GRID_CELLS_TOPIC, (e: LiveEvent) => {
      if (isGridCellsEvent(e)) this.invalidate(e.points);
    });
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** Drops every list a location at one of these points could belong to, or could have. */
  invalidate(points: readonly LatLng[]): void {
    const xyz = points.map((p) => coords(geoPoint(p, 0)));
    this.seq += 1;
    this.recent.push({ seq: this.seq, xyz });
    if (this.recent.length > RECENT) this.recent.shift();
    for (const [key, list] of this.lists) if (xyz.some((p) => touches(list, p))) this.drop(key, list);
  }

  /** What the lists hold now: for the benchmark's memory figure and tests. */
  stats(): { lists: number; entries: number } {
    return { lists: this.lists.size, entries: this.entries };
  }

  /**
   * The first k candidates for this viewer after the cursor, in his order, within maxDistance:
   * exactly those the grid's own walk would yield, or null when that would need a list longer
   * than MAX_LIST (the caller walks in SQL instead).
   */
  async pick(db: Db, v: GridViewer, f: GridFilters, after: GridKey | null, k: number): Promise<Pick | null> {
    const key = keyOf(v);
    const freshSince = f.freshSince.getTime();
    let list = this.lists.get(key);
    if (list && list.freshSince > freshSince) {
      this.drop(key, list);
      list = undefined;
    }
    if (list) {
      this.lists.delete(key);
      this.lists.set(key, list);
    }
    let size = list ? list.ids.length : 0;
    const [vx = 0, vy = 0, vz = 0, vw = 0] = coords(viewerGeo(v.id, v.seedDay, v));
    for (;;) {
      if (!list) list = await this.fill(db, key, v, f.freshSince, Math.max(this.firstList, size));
      const got = choose(list, v.id, [vx, vy, vz, vw], after, f.maxChord, freshSince, k);
      if (got) return got;
      if (list.ids.length >= this.maxList) return null;
      size = Math.min(this.maxList, list.ids.length * 4);
      this.drop(key, list);
      list = undefined;
    }
  }

  private drop(key: string, list: CellList): void {
    if (this.lists.get(key) !== list) return;
    this.lists.delete(key);
    this.entries -= list.ids.length;
  }

  private fill(db: Db, key: string, centre: LatLng, freshSince: Date, k: number): Promise<CellList> {
    const pending = this.filling.get(key);
    if (pending) return pending;
    const run = this.load(db, key, centre, freshSince, k).finally(() => this.filling.delete(key));
    this.filling.set(key, run);
    return run;
  }

  private async load(db: Db, key: string, centre: LatLng, freshSince: Date, k: number): Promise<CellList> {
    const started = this.seq;
    const literal = geoPoint(centre, FILL_TIE);
    const [cx = 0, cy = 0, cz = 0] = coords(literal);
    const rows = await cellCandidates(db, literal, freshSince, k);
    const n = rows.length;
    const list: CellList = {
      cx,
      cy,
      cz,
      ids: rows.map((r) => r.user_id),
      lat: Float64Array.from(rows, (r) => r.lat),
      lng: Float64Array.from(rows, (r) => r.lng),
      x: Float64Array.from(rows, (r) => r.x),
      y: Float64Array.from(rows, (r) => r.y),
      z: Float64Array.from(rows, (r) => r.z),
      w: Float64Array.from(rows, (r) => r.w),
      fill: Float64Array.from(rows, (r) => r.d),
      updated: Float64Array.from(rows, (r) => r.last_updated.getTime()),
      complete: n < k,
      freshSince: freshSince.getTime(),
    };
    // A location that changed while the walk ran may be missing from it or misplaced in it: the
    // list serves this page (it is what the database held) but is not kept.
    const missed = this.seq - started;
    const stale =
      missed > 0 &&
      (missed > this.recent.length || this.recent.some((e) => e.seq > started && e.xyz.some((p) => touches(list, p))));
    if (!stale) {
      const old = this.lists.get(key);
      if (old) this.drop(key, old);
      this.lists.set(key, list);
      this.entries += n;
      this.evict();
    }
    return list;
  }

  private evict(): void {
    const max = this.maxEntries;
    for (const [key, list] of this.lists) {
      if (this.entries <= max || this.lists.size <= 1) return;
      this.drop(key, list);
    }
  }
}

/** Whether a location at p (x, y, z) could be in this list, or belong in it. */
function touches(list: CellList, p: number[]): boolean {
  if (list.complete) return true;
  const n = list.fill.length;
  const d = Math.hypot((p[0] ?? 0) - list.cx, (p[1] ?? 0) - list.cy, (p[2] ?? 0) - list.cz);
  // Anyone at p is at least d from the fill point: beyond the list's last, he is in no list.
  return n === 0 || d <= (list.fill[n - 1] ?? 0) + 1;
}

/** (d, id) after (d0, id0), as the grid's keyset compares them (ids in C order). */
const after = (d: number, id: string, key: GridKey) => d > key.d || (d === key.d && id > key.id);

/**
 * The first k of the list in the viewer's order after the cursor, within maxChord, fresh and not
 * himself; null when the list cannot vouch for them (someone beyond its end might come first).
 */
function choose(
  list: CellList,
  self: string,
  vp: number[],
  from: GridKey | null,
  maxChord: number,
  freshSince: number,
  k: number,
): Pick | null {
  const n = list.ids.length;
  const [vx = 0, vy = 0, vz = 0, vw = 0] = vp;
  // Before the first fill distance at cursor.d - SLACK everyone is before the cursor.
  let lo = 0;
  if (from) {
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((list.fill[mid] ?? 0) < from.d - SLACK) lo = mid + 1;
      else hi = mid;
    }
  }
  let got: Array<{ i: number; d: number }> = [];
  let bound = maxChord;
  const order = (a: { i: number; d: number }, b: { i: number; d: number }) =>
    a.d - b.d || (list.ids[a.i]! < list.ids[b.i]! ? -1 : list.ids[a.i]! > list.ids[b.i]! ? 1 : 0);
  for (let i = lo; i < n && (list.fill[i] ?? 0) <= bound + SLACK; i++) {
    if ((list.updated[i] ?? 0) < freshSince) continue;
    const id = list.ids[i]!;
    if (id === self) continue;
    const d = cubeDistance(list.x[i]!, list.y[i]!, list.z[i]!, list.w[i]!, vx, vy, vz, vw);
    if (d > maxChord || (from && !after(d, id, from))) continue;
    got.push({ i, d });
    if (got.length >= 2 * k) {
      got.sort(order);
      got = got.slice(0, k);
      bound = Math.min(bound, got[k - 1]!.d);
    }
  }
  got.sort(order);
  if (got.length > k) got = got.slice(0, k);
  // Everyone nearer than `cover` to the viewer is in the list (nearer than its last to the fill point).
  const cover = list.complete ? Number.POSITIVE_INFINITY : (list.fill[n - 1] ?? 0) - SLACK;
  const full = got.length === k;
  if (full ? got[k - 1]!.d >= cover : maxChord >= cover) return null;
  return {
    ids: got.map((g) => list.ids[g.i]!),
    lats: got.map((g) => list.lat[g.i]!),
    lngs: got.map((g) => list.lng[g.i]!),
    ds: got.map((g) => g.d),
    all: !full,
  };
}
