import { describe, expect, it } from 'vitest';
import { bannerVisible, initialInstallState, installReducer, installTitle } from './installState.ts';

describe('install banner state', () => {
  it('starts installed in standalone display mode, dismissed if dismissed before, else waiting', () => {
    expect(initialInstallState({ standalone: true, dismissedBefore: true })).toBe('installed');
    expect(initialInstallState({ standalone: false, dismissedBefore: true })).toBe('dismissed');
    expect(initialInstallState({ standalone: false, dismissedBefore: false })).toBe('unavailable');
  });

  it('becomes installable when the browser offers installation, and only then shows the banner', () => {
    expect(bannerVisible('unavailable')).toBe(false);
    const s = installReducer('unavailable', { type: 'promptAvailable' });
    expect(s).toBe('installable');
    expect(bannerVisible(s)).toBe(true);
  });

  it('installable → installed on appinstalled or an accepted prompt', () => {
    expect(installReducer('installable', { type: 'installed' })).toBe('installed');
    expect(installReducer('installable', { type: 'promptAnswered', outcome: 'accepted' })).toBe('installed');
  });

  it('installable → dismissed by the × or a declined prompt', () => {
    expect(installReducer('installable', { type: 'dismissed' })).toBe('dismissed');
    expect(installReducer('installable', { type: 'promptAnswered', outcome: 'dismissed' })).toBe('dismissed');
  });

  it('a dismissed banner stays hidden when the browser offers again, but can still learn of an install', () => {
    expect(installReducer('dismissed', { type: 'promptAvailable' })).toBe('dismissed');
    expect(installReducer('dismissed', { type: 'installed' })).toBe('installed');
  });

  it('installed is final', () => {
    for (const type of ['promptAvailable', 'dismissed'] as const) expect(installReducer('installed', { type })).toBe('installed');
    expect(bannerVisible('installed')).toBe(false);
  });

  it('titles the banner with the brand abbreviation', () => {
    expect(installTitle('FMK')).toBe('Install FMK App');
    expect(installTitle('#MK')).toBe('Install #MK App');
  });
});
