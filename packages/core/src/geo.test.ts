import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CELL_METERS,
  cellCentre,
  cellOf,
  distanceKm,
  distanceLabel,
  isImpossibleJump,
  isValidLatLng,
  type LatLng,
  observedDistanceLabel,
  snap,
  snappedDistanceKm,
} from './geo.ts';

const city = fc.record({
  lat: fc.double({ min: -60, max: 70, noNaN: true }),
  lng: fc.double({ min: -179, max: 179, noNaN: true }),
});
/** A point within `km` of p (in a box). */
const near = (p: LatLng, km: number) =>
  fc
    .record({ dLat: fc.double({ min: -1, max: 1, noNaN: true }), dLng: fc.double({ min: -1, max: 1, noNaN: true }) })
    .map(({ dLat, dLng }) => ({
      lat: p.lat + (dLat * km) / 111.32,
      lng: p.lng + (dLng * km) / (111.32 * Math.cos((p.lat * Math.PI) / 180)),
    }));

/** A second point in the same cell as p, anywhere in it. */
function sameCellPoint(p: LatLng, u: number, v: number): LatLng {
  const c = cellOf(p);
  const centre = cellCentre(c);
  const next = cellCentre({ row: c.row + 1, col: c.col });
  const latStep = next.lat - centre.lat;
  const right = cellCentre({ row: c.row, col: c.col + 1 });
  const lngStep = right.lng - centre.lng;
  return { lat: centre.lat + (u - 0.5) * latStep * 0.999, lng: centre.lng + (v - 0.5) * lngStep * 0.999 };
}

/** Everything an attacker can read from probes: labels, order against decoys, filter results. */
function observations(victim: LatLng, probes: LatLng[], decoys: LatLng[]): string[] {
  const out: string[] = [];
  for (const probe of probes) {
    out.push(observedDistanceLabel(probe, victim));
    // Sort order against decoys (ties are shuffled by the server; compare ranks by snapped distance).
    const dv = snappedDistanceKm(probe, victim);
    out.push(decoys.map((d) => Math.sign(snappedDistanceKm(probe, d) - dv)).join(','));
    // Distance filters at many radii.
    for (const r of [0.2, 0.5, 1, 2, 5, 10]) out.push(String(snappedDistanceKm(probe, victim) <= r));
  }
  return out;
}

describe('location privacy', () => {
  it('snaps to cells at least 100 m (CELL_METERS) on a side', () => {
    expect(CELL_METERS).toBeGreaterThanOrEqual(100);
    fc.assert(
      fc.property(city, (p) => {
        const c = cellOf(p);
        const a = cellCentre(c);
        const up = cellCentre({ row: c.row + 1, col: c.col });
        const right = cellCentre({ row: c.row, col: c.col + 1 });
        expect(distanceKm(a, up) * 1000).toBeGreaterThan(CELL_METERS * 0.99);
        expect(distanceKm(a, right) * 1000).toBeGreaterThan(CELL_METERS * 0.95);
        // The snapped point is the centre of the cell the point is in.
        expect(cellOf(snap(p))).toEqual(c);
      }),
    );
  });

  it('gives an attacker, whatever positions he probes from, the same observations for any two points of one cell', () => {
    fc.assert(
      fc.property(
        city.chain((victim) =>
          fc.tuple(
            fc.constant(victim),
            fc.double({ min: 0, max: 1, noNaN: true }),
            fc.double({ min: 0, max: 1, noNaN: true }),
            fc.array(near(victim, 3), { minLength: 3, maxLength: 12 }),
            fc.array(near(victim, 3), { minLength: 1, maxLength: 5 }),
          ),
        ),
        ([victim, u, v, probes, decoys]) => {
          const twin = sameCellPoint(victim, u, v);
          expect(observations(twin, probes, decoys)).toEqual(observations(victim, probes, decoys));
        },
      ),
      { numRuns: 300 },
    );
  });

  /** A rounded-distance trilateration attack (Grindr/Tinder style): find where the label flips. */
  function trilaterate(observe: (probe: LatLng) => string, start: LatLng): LatLng {
    const boundary: LatLng[] = [];
    for (const bearing of [0, 120, 240]) {
      const rad = (bearing * Math.PI) / 180;
      const at = (km: number) => ({
        lat: start.lat + (Math.cos(rad) * km) / 111.32,
        lng: start.lng + (Math.sin(rad) * km) / (111.32 * Math.cos((start.lat * Math.PI) / 180)),
      });
      let lo = 0;
      let hi = 5;
      const inside = observe(at(0));
      for (let i = 0; i < 40; i++) {
        const mid = (lo + hi) / 2;
        if (observe(at(mid)) === inside) lo = mid;
        else hi = mid;
      }
      boundary.push(at(lo));
    }
    // Circumcentre of the three boundary points (local flat coordinates).
    const [a, b, c] = boundary as [LatLng, LatLng, LatLng];
    const k = Math.cos((start.lat * Math.PI) / 180);
    const ax = a.lng * k;
    const bx = b.lng * k;
    const cx = c.lng * k;
    const d = 2 * (ax * (b.lat - c.lat) + bx * (c.lat - a.lat) + cx * (a.lat - b.lat));
    const ux =
      ((ax ** 2 + a.lat ** 2) * (b.lat - c.lat) +
        (bx ** 2 + b.lat ** 2) * (c.lat - a.lat) +
        (cx ** 2 + c.lat ** 2) * (a.lat - b.lat)) /
      d;
    const uy = ((ax ** 2 + a.lat ** 2) * (cx - bx) + (bx ** 2 + b.lat ** 2) * (ax - cx) + (cx ** 2 + c.lat ** 2) * (bx - ax)) / d;
    return { lat: uy, lng: ux / k };
  }

  it('defeats the trilateration attack that locates a naive app to within metres', () => {
    const victim = { lat: 37.7749, lng: -122.4194 };
    const start = { lat: 37.7751, lng: -122.4191 };
    // A naive app: exact distance, rounded for display. The attack finds the victim within 10 m.
    const naive = (probe: LatLng) => distanceLabel(distanceKm(probe, victim));
    expect(distanceKm(trilaterate(naive, start), victim) * 1000).toBeLessThan(10);

    // FMK: the same attack yields one estimate for every point of the victim's cell, so for
    // some victim in that cell its error is at least half the cell's diagonal.
    const corners = [
      sameCellPoint(victim, 0, 0),
      sameCellPoint(victim, 1, 1),
      sameCellPoint(victim, 0, 1),
      sameCellPoint(victim, 1, 0),
    ];
    const estimates = corners.map((v) => trilaterate((probe) => observedDistanceLabel(probe, v), start));
    for (const e of estimates) expect(e).toEqual(estimates[0]);
    const worst = Math.max(...corners.map((v) => distanceKm(estimates[0]!, v) * 1000));
    expect(worst).toBeGreaterThan(CELL_METERS / 2);
  });

  it('labels distances in buckets, never exact', () => {
    expect(distanceLabel(0.2)).toBe('< 1 km');
    expect(distanceLabel(3.4)).toBe('3 km');
    expect(distanceLabel(12.6)).toBe('15 km');
    expect(distanceLabel(75)).toBe('50+ km');
    expect(distanceLabel(3.4, 'imperial')).toBe('2 mi');
    fc.assert(
      fc.property(fc.double({ min: 0, max: 20_000, noNaN: true }), (km) => {
        expect(distanceLabel(km)).toMatch(/^(< 1|\d+|50\+) km$/);
      }),
    );
  });

  it('validates coordinates and flags impossible jumps', () => {
    expect(isValidLatLng({ lat: 91, lng: 0 })).toBe(false);
    expect(isValidLatLng({ lat: Number.NaN, lng: 0 })).toBe(false);
    expect(isValidLatLng({ lat: '1', lng: 0 })).toBe(false);
    expect(isValidLatLng({ lat: 45, lng: -180 })).toBe(true);
    const sf = { lat: 37.77, lng: -122.42 };
    const nyc = { lat: 40.71, lng: -74.0 };
    const t = new Date('2026-01-01T00:00:00Z');
    expect(isImpossibleJump(sf, t, nyc, new Date(t.getTime() + 60 * 60_000))).toBe(true);
    expect(isImpossibleJump(sf, t, nyc, new Date(t.getTime() + 6 * 60 * 60_000))).toBe(false);
    expect(isImpossibleJump(sf, t, { lat: 37.78, lng: -122.41 }, t)).toBe(false);
  });
});
