/** Beta programme (spec sections 3, 9). */
export interface BetaSettings {
  enabled: boolean;
  maxUsers: number;
  currentCount: number;
  lifetimePremium: boolean;
  autoClose: boolean;
}

export const DEFAULT_BETA_SETTINGS: BetaSettings = {
  enabled: false,
  maxUsers: 1000,
  currentCount: 0,
  lifetimePremium: true,
  autoClose: true,
};

/**
 * The host lowercased, without a port. A bare IPv6 literal ('::1') has no port to strip (its last
 * group is not one); only a bracketed literal may carry a port ('[::1]:3000').
 */
function hostWithoutPort(host: string): string {
  const h = host.toLowerCase();
  const bracketed = /^(\[[^\]]*\])(?::\d+)?$/.exec(h);
  if (bracketed) return bracketed[1]!;
  return h.split(':').length === 2 ? h.replace(/:\d+$/, '') : h;
}

/**
 * Eligibility: localhost always; the product's own production host and the auth provider's hosted
 * domain always; otherwise the beta must be enabled and not full.
 */
export function isBetaEligible(host: string, settings: BetaSettings, privilegedHosts: readonly string[] = []): boolean {
  const h = hostWithoutPort(host);
  if (h === 'localhost' || h === '127.0.0.1' || h === '[::1]' || h === '::1') return true;
  if (privilegedHosts.some((p) => p.toLowerCase() === h)) return true;
  return settings.enabled && settings.currentCount < settings.maxUsers;
}

/** After one more beta user joins: with autoClose the beta closes itself when full. */
export function afterBetaJoin(settings: BetaSettings): BetaSettings {
  const currentCount = settings.currentCount + 1;
  const full = currentCount >= settings.maxUsers;
  return { ...settings, currentCount, enabled: settings.autoClose && full ? false : settings.enabled };
}
