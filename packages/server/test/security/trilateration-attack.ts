import { CELL_METERS, distanceLabel, type LatLng, PLACE_METERS, snap } from '@fmk/core';

/**
 * The attacker's side of the trilateration test (trilateration.test.ts): what each answer tells
 * him about a victim's listed point, as an interval of its distance from the point he stood at,
 * and the estimate of the victim's position from all of it. He knows the server's code (core is
 * public): the label buckets, the cell lattice, the place squares; not a victim's shift.
 */

/** Every field that tells a distance, attacked alone and together. */
export const FIELDS = ['label', 'filter', 'order', 'pin', 'radius'] as const;
export type Field = (typeof FIELDS)[number];

const R = 6371;
const rad = Math.PI / 180;

/** Great-circle km, as core's distanceKm (the same formula, inlined for the many candidates). */
export function km(a: LatLng, b: LatLng): number {
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A point `east` and `north` km from p. */
export function offset(p: LatLng, east: number, north: number): LatLng {
  return { lat: p.lat + north / 111.32, lng: p.lng + east / (111.32 * Math.cos(p.lat * rad)) };
}

const labelRanges = new Map<string, [number, number]>();
/** The distances (km) a label stands for: [lo, hi] with distanceLabel(d) === label for d inside. */
export function labelInterval(label: string, units: 'metric' | 'imperial'): [number, number] | null {
  if (labelRanges.size === 0) {
    const step = 0.0005;
    for (const u of ['metric', 'imperial'] as const)
      for (let d = 0; d < 130; d += step) {
        const key = `${u}:${distanceLabel(d, u)}`;
        const r = labelRanges.get(key);
        if (r) r[1] = d + step;
        else labelRanges.set(key, [d, d + step]);
      }
  }
  const r = labelRanges.get(`${units}:${label}`);
  return r && !label.startsWith('50+') ? [r[0], r[1]] : null;
}

interface Bound {
  at: LatLng;
  lo: number;
  hi: number;
}

/** Intervals of |vantage - listed point| per victim and field, merged per vantage. */
export class Evidence {
  private readonly bounds = new Map<string, Map<string, Bound>>();

  add(field: Field, victim: string, at: LatLng, lo: number, hi: number): void {
    const k = `${field}:${victim}`;
    const m = this.bounds.get(k) ?? new Map<string, Bound>();
    this.bounds.set(k, m);
    const v = `${at.lat},${at.lng}`;
    const b = m.get(v);
    if (!b) m.set(v, { at, lo, hi });
    else {
      b.lo = Math.max(b.lo, lo);
      b.hi = Math.min(b.hi, hi);
    }
  }

  /** The bounds the fields give on one victim, intersected per vantage point. */
  of(fields: readonly Field[], victim: string): Bound[] {
    const merged = new Map<string, Bound>();
    for (const f of fields)
      for (const [k, b] of this.bounds.get(`${f}:${victim}`) ?? []) {
        const m = merged.get(k);
        if (!m) merged.set(k, { ...b });
        else {
          m.lo = Math.max(m.lo, b.lo);
          m.hi = Math.min(m.hi, b.hi);
        }
      }
    return [...merged.values()];
  }
}

/** Tolerance for the tie coordinate and rounding (km). */
const TOL = 0.002;

/** How far (km, summed) a candidate listed point lies outside the bounds: 0 inside all of them. */
function misfit(p: LatLng, bounds: Bound[]): number {
  let n = 0;
  for (const b of bounds) {
    const d = km(b.at, p);
    if (d < b.lo - TOL) n += b.lo - TOL - d;
    else if (d > b.hi + TOL) n += d - b.hi - TOL;
  }
  return n;
}

/** The centre of the candidates that fit best on a grid of (steps + 1)² points around `c`. */
function search(c: LatLng, half: number, steps: number, bounds: Bound[]): LatLng {
  let best = Number.POSITIVE_INFINITY;
  let sum = { lat: 0, lng: 0, n: 0 };
  for (let i = 0; i <= steps; i++)
    for (let j = 0; j <= steps; j++) {
      const p = offset(c, -half + (2 * half * i) / steps, -half + (2 * half * j) / steps);
      const v = misfit(p, bounds);
      if (v < best - 1e-9) {
        best = v;
        sum = { lat: 0, lng: 0, n: 0 };
      }
      if (Math.abs(v - best) <= 1e-9) sum = { lat: sum.lat + p.lat, lng: sum.lng + p.lng, n: sum.n + 1 };
    }
  return { lat: sum.lat / sum.n, lng: sum.lng / sum.n };
}

/**
 * The listed point best fitting the bounds: from the tightest bound's vantage, a coarse search
 * within its reach, then a fine one around the best (null without a bound).
 */
export function estimatePoint(bounds: Bound[]): LatLng | null {
  if (bounds.length === 0) return null;
  const tight = bounds.reduce((a, b) => (b.hi < a.hi ? b : a));
  const reach = Math.min(Math.max(tight.hi, 0.3), 3) + 0.1;
  const coarse = search(tight.at, reach, 30, bounds);
  const mid = search(coarse, Math.max(reach / 10, 0.1), 20, bounds);
  return search(mid, 0.03, 12, bounds);
}

/**
 * What the design's knowledge adds to a listed point: the victim's cell is one of those whose
 * centre lies in the place square around it (2 x 2 cells); the best single guess is their middle.
 */
export function guessFromPlace(place: LatLng): LatLng {
  const cells = new Map<string, LatLng>();
  const step = CELL_METERS / 2000;
  for (let dn = -2; dn <= 2; dn++)
    for (let de = -2; de <= 2; de++) {
      const c = snap(offset(place, de * step, dn * step));
      const inSquare =
        km(place, { lat: c.lat, lng: place.lng }) * 1000 <= PLACE_METERS / 2 &&
        km({ lat: c.lat, lng: place.lng }, c) * 1000 <= PLACE_METERS / 2;
      if (inSquare) cells.set(`${c.lat},${c.lng}`, c);
    }
  const all = [...cells.values()];
  if (all.length === 0) return place;
  return { lat: all.reduce((s, c) => s + c.lat, 0) / all.length, lng: all.reduce((s, c) => s + c.lng, 0) / all.length };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** A deterministic stream of numbers in [0, 1) (mulberry32): the same victims every run. */
export function stream(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
