import type { AlertSeverity, AlertState } from './alerts.ts';

/**
 * The safety score (spec section 9): base 50; +10 for each of five settings that are on (content
 * filtering, hide exact location, link prevention, public place reminders, restricting
 * unverified contacts); −15 for each unresolved high-severity alert; clamped to 0..100.
 */
export const SAFETY_SCORE_BASE = 50;
export const SAFETY_SCORE_PER_SETTING = 10;
export const SAFETY_SCORE_PER_HIGH_ALERT = 15;

/** The five settings the score reads, by their groups of spec section 3 (the settings store's shape). */
export interface SafetyScoreSettings {
  contentFiltering: { enabled: boolean };
  locationSafety: { hideExactLocation: boolean };
  communicationSafety: { linkPreventionEnabled: boolean };
  meetupSafety: { publicPlaceReminders: boolean };
  privacySettings: { restrictUnverifiedContacts: boolean };
}

type Group = keyof SafetyScoreSettings;

/** One setting that counts, with the words the Safety centre shows for it and its one-tap fix. */
export interface SafetyScoreItem<G extends Group = Group> {
  group: G;
  key: keyof SafetyScoreSettings[G] & string;
  label: string;
  /** What turning it on does, in a line. */
  benefit: string;
}

export const SAFETY_SCORE_ITEMS: readonly SafetyScoreItem[] = [
  {
    group: 'contentFiltering',
    key: 'enabled',
    label: 'Content filtering',
    benefit: 'Screens explicit photos before you see them.',
  },
  {
    group: 'locationSafety',
    key: 'hideExactLocation',
    label: 'Hide exact location',
    benefit: 'Others see a rough area, never your exact spot.',
  },
  {
    group: 'communicationSafety',
    key: 'linkPreventionEnabled',
    label: 'Link protection',
    benefit: "Links from men you haven't matched arrive as plain text.",
  },
  {
    group: 'meetupSafety',
    key: 'publicPlaceReminders',
    label: 'Meetup reminders',
    benefit: 'Reminds you to meet in a public place first.',
  },
  {
    group: 'privacySettings',
    key: 'restrictUnverifiedContacts',
    label: 'Restrict unverified contacts',
    benefit: "Men who haven't verified their phone can't contact you.",
  },
] as SafetyScoreItem[];

export interface SafetyScore {
  score: number;
  /** Each scoring setting, on or off: the off ones are what would raise the score. */
  items: (SafetyScoreItem & { on: boolean; points: number })[];
  /** Unresolved high-severity alerts, each costing SAFETY_SCORE_PER_HIGH_ALERT. */
  unresolvedHigh: number;
}

/** Whether an alert still counts against the score: high and neither resolved nor dismissed. */
export function countsAgainst(a: { severity: AlertSeverity; state: AlertState }): boolean {
  return a.severity === 'high' && (a.state === 'unread' || a.state === 'read');
}

/** The safety score of spec section 9 from his settings and his alerts. */
export function safetyScore(
  settings: SafetyScoreSettings,
  alerts: readonly { severity: AlertSeverity; state: AlertState }[],
): SafetyScore {
  const items = SAFETY_SCORE_ITEMS.map((item) => {
    const group = settings[item.group] as Record<string, boolean>;
    return { ...item, on: group[item.key] === true, points: SAFETY_SCORE_PER_SETTING };
  });
  const unresolvedHigh = alerts.filter(countsAgainst).length;
  const raw =
    SAFETY_SCORE_BASE +
    items.filter((i) => i.on).length * SAFETY_SCORE_PER_SETTING -
    unresolvedHigh * SAFETY_SCORE_PER_HIGH_ALERT;
  return { score: Math.min(100, Math.max(0, raw)), items, unresolvedHigh };
}

/**
 * The nudity score from which a viewer in strict mode (contentFiltering.strictMode) no longer sees
 * another man's photo: lower than the server's hold threshold (MODERATION_HOLD_AT, the spec's
 * 0.8), so what the model only suspects is kept from him too. NSFW.js gives a borderline photo
 * (underwear, a bare chest in a sexual pose) 0.5 to 0.8.
 */
export const STRICT_HOLD_AT = 0.5;

/**
 * Whether a photo of another man is kept from a viewer in strict mode: the model marked it
 * explicit (`sensitive`, or held for staff) or scored it at STRICT_HOLD_AT or above. A photo not
 * scored yet (null) is not kept: it is scored within a second of its upload. Strict mode is part
 * of content filtering: with filtering off, nothing is kept.
 */
export function strictlyHidden(
  filtering: { enabled: boolean; strictMode: boolean },
  photo: { sensitive?: boolean | undefined; nudity?: number | null | undefined },
): boolean {
  const from = strictHoldAt(filtering);
  return from !== null && (photo.sensitive === true || (photo.nudity ?? 0) >= from);
}

/** The score from which a viewer's strict mode keeps other men's photos from him; null when it is off. */
export function strictHoldAt(filtering: { enabled: boolean; strictMode: boolean }): number | null {
  return filtering.enabled && filtering.strictMode ? STRICT_HOLD_AT : null;
}

/**
 * How a received chat photo is shown: the model marked it `sensitive`; the
 * receiver's content filtering then hides it behind a notice (hideExplicitContent, or strict mode
 * from the lower STRICT_HOLD_AT) or blurs it until he taps (blurSensitiveImages). Content
 * filtering off shows everything.
 */
export function chatPhotoView(
  filtering: { enabled: boolean; strictMode?: boolean; hideExplicitContent: boolean; blurSensitiveImages: boolean },
  sensitive: boolean,
  nudity: number | null = null,
): 'show' | 'blur' | 'hide' {
  if (strictlyHidden({ enabled: filtering.enabled, strictMode: filtering.strictMode === true }, { sensitive, nudity }))
    return 'hide';
  if (!sensitive || !filtering.enabled) return 'show';
  if (filtering.hideExplicitContent) return 'hide';
  return filtering.blurSensitiveImages ? 'blur' : 'show';
}
