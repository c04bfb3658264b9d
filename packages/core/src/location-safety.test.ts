import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distanceView, placedByArea } from './access-location.ts';
import { AREA_METERS, areaCentre, areaDistanceLabel, distanceKm, observedAreaDistanceLabel, snap } from './geo.ts';

const point = fc.record({
  lat: fc.double({ min: -80, max: 80, noNaN: true }),
  lng: fc.double({ min: -179.9, max: 179.9, noNaN: true }),
});
const settings = fc.record({
  shareDistance: fc.boolean(),
  shareOnlyWithMatches: fc.boolean(),
  hideExactLocation: fc.boolean(),
});

describe('locationSafety: how much of his distance another man learns', () => {
  it('gives nothing without distance sharing or, with matches only, to a non-match; his area when he hides the exact one', () => {
    fc.assert(
      fc.property(settings, fc.boolean(), (set, matched) => {
        const view = distanceView(set, matched);
        if (!set.shareDistance || (set.shareOnlyWithMatches && !matched)) expect(view).toBe('none');
        else expect(view).toBe(set.hideExactLocation ? 'area' : 'cell');
      }),
    );
    const matchesOnly = { shareDistance: true, shareOnlyWithMatches: true, hideExactLocation: false };
    expect(distanceView(matchesOnly, true)).toBe('cell');
    expect(distanceView(matchesOnly, false)).toBe('none');
  });

  it('places him by his area whenever some viewer may learn less than his cell', () => {
    fc.assert(
      fc.property(settings, (set) => {
        expect(placedByArea(set)).toBe(set.hideExactLocation || set.shareOnlyWithMatches);
      }),
    );
  });
});

describe('areas (geo.ts)', () => {
  it('gives every point of one cell the same area, within half an area’s diagonal of the point', () => {
    fc.assert(
      fc.property(point, (p) => {
        const a = areaCentre(p);
        expect(areaCentre(snap(p))).toEqual(a);
        expect(areaCentre(a)).toEqual(a);
        expect(distanceKm(p, a)).toBeLessThan((AREA_METERS / 1000) * 1.2);
      }),
    );
  });

  it('labels an area distance in steps of 5 and nothing finer', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 200, noNaN: true }), (km) => {
        const label = areaDistanceLabel(km);
        expect(label).toMatch(/^(< 5|5|10|15|20|25|30|35|40|45|50\+) km$/);
      }),
    );
    expect(areaDistanceLabel(0.3)).toBe('< 5 km');
    expect(areaDistanceLabel(7.9)).toBe('5 km');
    expect(areaDistanceLabel(12)).toBe('10 km');
    expect(areaDistanceLabel(80)).toBe('50+ km');
    expect(areaDistanceLabel(9, 'imperial')).toBe('5 mi');
  });

  it('tells a viewer nothing about where in his area a man is', () => {
    fc.assert(
      fc.property(point, point, (viewer, target) => {
        const moved = areaCentre(target);
        expect(observedAreaDistanceLabel(viewer, target)).toBe(observedAreaDistanceLabel(viewer, moved));
      }),
    );
  });
});
