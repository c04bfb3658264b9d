import { type AliasedSelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../../../db/index.ts';
import { boostedCandidatesQuery, type Candidate, type GridFilters, type GridViewer, visibleRows } from '../repo.ts';

/**
 * SQL of the grid's per-cell candidate lists (candidates.ts): one list is filled by the same
 * nearest-first GiST walk as the grid's own (`nearest`), from the cell's centre and for every
 * viewer in it; a page then runs the grid's rules (`visibleRows`, the very statement the plain
 * path runs) over the candidates the list gives, instead of over a walk of its own.
 */

/** A shared, fresh location as a list keeps it: the stored `geo` point's four coordinates, exactly. */
export interface CellCandidateRow {
  user_id: string;
  lat: number;
  lng: number;
  last_updated: Date;
  x: number;
  y: number;
  z: number;
  w: number;
  d: number;
}

/** A location's stored `geo` point as its four coordinates (the lists compute `<->` from them). */
export const geoCoordinates = [
  sql<number>`cube_ll_coord(ul.geo, 1)`.as('x'),
  sql<number>`cube_ll_coord(ul.geo, 2)`.as('y'),
  sql<number>`cube_ll_coord(ul.geo, 3)`.as('z'),
  sql<number>`cube_ll_coord(ul.geo, 4)`.as('w'),
] as const;

/** The k shared, fresh locations nearest to `centre` (a cube literal), nearest first. */
export function cellCandidatesQuery(db: Db, centre: string, freshSince: Date, k: number) {
  const d = sql<number>`(ul.geo <-> ${centre}::cube)`;
  return db
    .selectFrom('user_locations as ul')
    .select(['ul.user_id', 'ul.lat', 'ul.lng', 'ul.last_updated', ...geoCoordinates, d.as('d')])
    .where('ul.is_active', '=', true)
    .where('ul.last_updated', '>=', freshSince)
    .orderBy(d)
    .limit(k);
}

export async function cellCandidates(db: Db, centre: string, freshSince: Date, k: number): Promise<CellCandidateRow[]> {
  const rows = await cellCandidatesQuery(db, centre, freshSince, k).execute();
  return rows.map((r) => ({
    ...r,
    lat: Number(r.lat),
    lng: Number(r.lng),
    x: Number(r.x),
    y: Number(r.y),
    z: Number(r.z),
    w: Number(r.w),
    d: Number(r.d),
  }));
}

/** Candidates handed in by the caller, in columns: whose, where, and his distance from this viewer. */
export interface GivenCandidates {
  ids: string[];
  lats: number[];
  lngs: number[];
  ds: number[];
}

function given(db: Db, c: GivenCandidates): AliasedSelectQueryBuilder<Candidate, 'ul'> {
  const rows = sql<Candidate>`(select unnest(${c.ids}::text[]) as user_id, unnest(${c.lats}::float8[]) as lat, unnest(${c.lngs}::float8[]) as lng, unnest(${c.ds}::float8[]) as d)`;
  return db.selectFrom(rows.as('c')).selectAll('c').as('ul') as unknown as AliasedSelectQueryBuilder<Candidate, 'ul'>;
}

/** One page of the grid among the given candidates: the grid's rules and order, n at most. */
export function givenPageQuery(db: Db, v: GridViewer, f: GridFilters, c: GivenCandidates, n: number) {
  return visibleRows(db, given(db, c), v, f).limit(n);
}

/**
 * The boosted men who head the viewer's first page: only those his grid would list anyway (the
 * grid's rules over the running boosts near him, boostedCandidatesQuery), nearest first, n at most.
 */
export async function boostedPage(db: Db, v: GridViewer, f: GridFilters, now: Date, n: number) {
  const near = await boostedCandidatesQuery(db, v, f, now).execute();
  if (near.length === 0) return [];
  return givenPageQuery(
    db,
    v,
    f,
    {
      ids: near.map((r) => r.user_id),
      lats: near.map((r) => Number(r.lat)),
      lngs: near.map((r) => Number(r.lng)),
      ds: near.map((r) => Number(r.d)),
    },
    n,
  ).execute();
}
