import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CELL_METERS, cellOf, distanceKm, type LatLng, PLACE_METERS, placeCentre, snap } from './geo.ts';

const city = fc.record({
  lat: fc.double({ min: -60, max: 70, noNaN: true }),
  lng: fc.double({ min: -179, max: 179, noNaN: true }),
});
const shift = fc.record({
  lat: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
  lng: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
});
const kmNorth = (p: LatLng, km: number) => ({ lat: p.lat + km / 111.32, lng: p.lng });
const kmEast = (p: LatLng, km: number) => ({ lat: p.lat, lng: p.lng + km / (111.32 * Math.cos((p.lat * Math.PI) / 180)) });

/** A deterministic stream of numbers in [0, 1) (mulberry32), so the figure below is the same every run. */
function stream(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

describe('places (docs/decisions/0016)', () => {
  it('are a function of the cell and the shift: any two points of one cell share one place', () => {
    fc.assert(
      fc.property(city, shift, fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (p, s, f) => {
        const c = snap(p);
        // Another point of the same cell.
        const q = { lat: c.lat + (f - 0.5) * 0.0044, lng: c.lng };
        if (JSON.stringify(cellOf(q)) !== JSON.stringify(cellOf(p))) return;
        expect(placeCentre(q, s)).toEqual(placeCentre(p, s));
      }),
    );
  });

  it('lie in the PLACE_METERS square around the cell centre, so at most ~707 m from it', () => {
    fc.assert(
      fc.property(city, shift, (p, s) => {
        const c = snap(p);
        const place = placeCentre(p, s);
        const north = distanceKm(c, { lat: place.lat, lng: c.lng }) * 1000;
        const east = distanceKm({ lat: place.lat, lng: c.lng }, place) * 1000;
        expect(north).toBeLessThanOrEqual(PLACE_METERS / 2 + 1);
        expect(east).toBeLessThanOrEqual(PLACE_METERS / 2 + 1);
      }),
    );
  });

  it('leave the man anywhere in the 2 x 2 cells around his place: the best guess from it is off by over 250 m (median)', () => {
    // The attacker knows the design and the cell lattice, and has the place exactly (what every
    // distance, order, filter and pin at most tells). His man is in one of the cells whose centre
    // lies in the square around the place; the best guess is the middle of those cells.
    const next = stream(22);
    const centre = { lat: 52.52, lng: 13.4 };
    const errors: number[] = [];
    for (let i = 0; i < 4000; i++) {
      const man = kmEast(kmNorth(centre, (next() - 0.5) * 8), (next() - 0.5) * 8);
      const place = placeCentre(man, { lat: next(), lng: next() });
      const cells: LatLng[] = [];
      for (let dn = -2; dn <= 2; dn++)
        for (let de = -2; de <= 2; de++) {
          const c = snap(kmEast(kmNorth(place, (dn * CELL_METERS) / 2000), (de * CELL_METERS) / 2000));
          const inSquare =
            distanceKm(place, { lat: c.lat, lng: place.lng }) * 1000 <= PLACE_METERS / 2 &&
            distanceKm({ lat: c.lat, lng: place.lng }, c) * 1000 <= PLACE_METERS / 2;
          if (inSquare && !cells.some((x) => x.lat === c.lat && x.lng === c.lng)) cells.push(c);
        }
      const guess = {
        lat: cells.reduce((s, c) => s + c.lat, 0) / cells.length,
        lng: cells.reduce((s, c) => s + c.lng, 0) / cells.length,
      };
      errors.push(Math.min(distanceKm(guess, man), distanceKm(place, man)) * 1000);
    }
    errors.sort((a, b) => a - b);
    expect(errors[errors.length / 2]).toBeGreaterThan(250);
  });
});
