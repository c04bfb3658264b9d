import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALERT_SEVERITIES, ALERT_STATES } from './alerts.ts';
import {
  chatPhotoView,
  SAFETY_SCORE_ITEMS,
  type SafetyScoreSettings,
  STRICT_HOLD_AT,
  safetyScore,
  strictlyHidden,
} from './safety.ts';

const settingsArb: fc.Arbitrary<SafetyScoreSettings> = fc.record({
  contentFiltering: fc.record({ enabled: fc.boolean() }),
  locationSafety: fc.record({ hideExactLocation: fc.boolean() }),
  communicationSafety: fc.record({ linkPreventionEnabled: fc.boolean() }),
  meetupSafety: fc.record({ publicPlaceReminders: fc.boolean() }),
  privacySettings: fc.record({ restrictUnverifiedContacts: fc.boolean() }),
});
const alertArb = fc.record({ severity: fc.constantFrom(...ALERT_SEVERITIES), state: fc.constantFrom(...ALERT_STATES) });
const allOff: SafetyScoreSettings = {
  contentFiltering: { enabled: false },
  locationSafety: { hideExactLocation: false },
  communicationSafety: { linkPreventionEnabled: false },
  meetupSafety: { publicPlaceReminders: false },
  privacySettings: { restrictUnverifiedContacts: false },
};

describe('safety score (spec section 9)', () => {
  it('is 50 + 10 per setting on − 15 per unresolved high alert, clamped to 0..100', () => {
    fc.assert(
      fc.property(settingsArb, fc.array(alertArb, { maxLength: 12 }), (settings, alerts) => {
        const s = safetyScore(settings, alerts);
        const on = s.items.filter((i) => i.on).length;
        const high = alerts.filter((a) => a.severity === 'high' && (a.state === 'unread' || a.state === 'read')).length;
        expect(s.unresolvedHigh).toBe(high);
        expect(s.score).toBe(Math.min(100, Math.max(0, 50 + 10 * on - 15 * high)));
        expect(s.score).toBeGreaterThanOrEqual(0);
        expect(s.score).toBeLessThanOrEqual(100);
      }),
    );
  });

  it('never falls when a setting is turned on, and never rises with another unresolved high alert', () => {
    fc.assert(
      fc.property(
        settingsArb,
        fc.array(alertArb, { maxLength: 8 }),
        fc.nat(SAFETY_SCORE_ITEMS.length - 1),
        (settings, alerts, i) => {
          const item = SAFETY_SCORE_ITEMS[i]!;
          const turnedOn = { ...settings, [item.group]: { ...settings[item.group], [item.key]: true } } as SafetyScoreSettings;
          expect(safetyScore(turnedOn, alerts).score).toBeGreaterThanOrEqual(safetyScore(settings, alerts).score);
          const worse = [...alerts, { severity: 'high' as const, state: 'unread' as const }];
          expect(safetyScore(settings, worse).score).toBeLessThanOrEqual(safetyScore(settings, alerts).score);
        },
      ),
    );
  });

  it('ignores low and medium alerts and resolved or dismissed high ones', () => {
    const quiet = [
      { severity: 'low', state: 'unread' },
      { severity: 'medium', state: 'read' },
      { severity: 'high', state: 'resolved' },
      { severity: 'high', state: 'dismissed' },
    ] as const;
    expect(safetyScore(allOff, quiet).score).toBe(50);
    expect(safetyScore(allOff, [{ severity: 'high', state: 'unread' }]).score).toBe(35);
    const allOn = Object.fromEntries(
      Object.entries(allOff).map(([g, v]) => [g, Object.fromEntries(Object.keys(v).map((k) => [k, true]))]),
    ) as unknown as SafetyScoreSettings;
    expect(safetyScore(allOn, []).score).toBe(100);
    expect(safetyScore(allOff, Array(5).fill({ severity: 'high', state: 'read' })).score).toBe(0);
    expect(safetyScore(allOff, []).items.map((i) => i.label)).toEqual(SAFETY_SCORE_ITEMS.map((i) => i.label));
  });
});

describe('chat photo view', () => {
  it('shows every photo that is not sensitive, and everything with content filtering off', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), (enabled, hide, blur, sensitive) => {
        const view = chatPhotoView({ enabled, hideExplicitContent: hide, blurSensitiveImages: blur }, sensitive);
        if (!sensitive || !enabled) expect(view).toBe('show');
        else expect(view).toBe(hide ? 'hide' : blur ? 'blur' : 'show');
      }),
    );
  });

  it('hides, in strict mode, every photo scored from the lower strict threshold, whatever else he chose', () => {
    const score = fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null });
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), score, (enabled, hide, blur, sensitive, nudity) => {
        const filtering = { enabled, strictMode: true, hideExplicitContent: hide, blurSensitiveImages: blur };
        const view = chatPhotoView(filtering, sensitive, nudity);
        const kept = enabled && (sensitive || (nudity ?? 0) >= STRICT_HOLD_AT);
        expect(strictlyHidden(filtering, { sensitive, nudity })).toBe(kept);
        if (kept) expect(view).toBe('hide');
        else expect(view).toBe(chatPhotoView({ ...filtering, strictMode: false }, sensitive, nudity));
      }),
    );
    expect(STRICT_HOLD_AT).toBeLessThan(0.8);
    const strict = { enabled: true, strictMode: true, hideExplicitContent: false, blurSensitiveImages: true };
    expect(chatPhotoView(strict, false, 0.6)).toBe('hide');
    expect(chatPhotoView({ ...strict, strictMode: false }, false, 0.6)).toBe('show');
  });
});
