/**
 * The install banner's states (spec section 4 "PWA install"): it appears once the browser offers
 * installation, and ends either installed or dismissed. 'unavailable' is the wait before an offer.
 */
export type InstallState = 'unavailable' | 'installable' | 'installed' | 'dismissed';

export type InstallEvent =
  | { type: 'promptAvailable' }
  | { type: 'installed' }
  | { type: 'dismissed' }
  | { type: 'promptAnswered'; outcome: 'accepted' | 'dismissed' };

export const INSTALL_DISMISSED_KEY = 'pwa_install_dismissed';

export function initialInstallState(env: { standalone: boolean; dismissedBefore: boolean }): InstallState {
  if (env.standalone) return 'installed';
  if (env.dismissedBefore) return 'dismissed';
  return 'unavailable';
}

export function installReducer(state: InstallState, event: InstallEvent): InstallState {
  if (state === 'installed') return state;
  switch (event.type) {
    case 'installed':
      return 'installed';
    case 'promptAvailable':
      return state === 'unavailable' ? 'installable' : state;
    case 'dismissed':
      return 'dismissed';
    case 'promptAnswered':
      return event.outcome === 'accepted' ? 'installed' : 'dismissed';
  }
}

export function bannerVisible(state: InstallState): boolean {
  return state === 'installable';
}

/** 'Install' plus the brand abbreviation plus 'App' (spec section 2). */
export function installTitle(brand: string): string {
  return `Install ${brand} App`;
}
