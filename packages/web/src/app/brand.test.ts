import { describe, expect, it } from 'vitest';
import { brandLabel } from './brand.ts';

describe('brandLabel (spec 1)', () => {
  it('reads FMK for both, F#K for fuck-only and #MK for marry-only', () => {
    expect(brandLabel('both')).toBe('FMK');
    expect(brandLabel('fuck')).toBe('F#K');
    expect(brandLabel('marry')).toBe('#MK');
  });

  it('falls back to FMK when the mode is unknown', () => {
    expect(brandLabel(null)).toBe('FMK');
    expect(brandLabel(undefined)).toBe('FMK');
  });
});
