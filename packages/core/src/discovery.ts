import { z } from 'zod';
import { cardPhotoFilterFields } from './photo-filter.ts';
import { MAX_AGE, MIN_AGE, MODES, POSITIONS, SHOW_ME } from './profile.ts';

/**
 * The grid contract. Positions go up, never down: the server answers with distance
 * labels computed from snapped cells (geo.ts), never coordinates.
 *   PUT  /me/location           {lat, lng}                       → 204
 *   PUT  /me/location/consent   locationConsentBody              → 204
 *   DELETE /me/location                                          → 204
 *   GET  /grid?…                gridQuery                        → gridPage
 *   POST /selections            selectionBody                    → selectionResult
 *   GET  /matches                                                → match[]
 *   GET  /likes                                                  → likesPage (identities only for premium)
 *   POST /likes/seen                                             → 204
 *   GET  /badges                                                 → badges
 */
export const locationBody = z.object({
  lat: z
    .number({ error: 'Latitude must be a number.' })
    .min(-90, 'Latitude must be between -90 and 90.')
    .max(90, 'Latitude must be between -90 and 90.'),
  lng: z
    .number({ error: 'Longitude must be a number.' })
    .min(-180, 'Longitude must be between -180 and 180.')
    .max(180, 'Longitude must be between -180 and 180.'),
});
export type LocationBody = z.infer<typeof locationBody>;
/** PUT /me/location/consent: withdrawing consent also stops sharing. */
export const locationConsentBody = z.object({ consent: z.boolean({ error: 'Consent must be true or false.' }) });

const intParam = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Basic filters come from preferences; the rest are Premium's advanced filters. */
export const gridQuery = z.object({
  // Sealed by the server: its keyset position, and the boosted men the first page showed on top.
  cursor: z.string().max(1200).optional(),
  limit: intParam(1, 100).default(60),
  ageMin: intParam(MIN_AGE, MAX_AGE).optional(),
  ageMax: intParam(MIN_AGE, MAX_AGE).optional(),
  maxDistance: intParam(1, 500).optional(),
  showMe: z.enum(SHOW_ME).optional(),
  // Advanced (Premium):
  onlineOnly: z.stringbool().optional(),
  withPhotos: z.stringbool().optional(),
  position: z.enum(POSITIONS).optional(),
  tribe: z.string().max(60).optional(),
  heightMin: intParam(120, 250).optional(),
  heightMax: intParam(120, 250).optional(),
});
export type GridQuery = z.infer<typeof gridQuery>;
export const ADVANCED_FILTERS = ['onlineOnly', 'withPhotos', 'position', 'tribe', 'heightMin', 'heightMax'] as const;
export const ADVANCED_FILTERS_UPSELL = 'Advanced filters are available with Premium membership...';

export function usesAdvancedFilters(q: Partial<GridQuery>): boolean {
  return ADVANCED_FILTERS.some((k) => q[k] !== undefined && q[k] !== false);
}

export const gridCellSchema = z.object({
  uid: z.string(),
  displayName: z.string().nullable(),
  age: z.number().int().nullable(),
  photoURL: z.string().nullable(),
  ...cardPhotoFilterFields,
  /** Null when he turned distance sharing off (settings.ts). */
  distance: z.string().nullable(),
  isOnline: z.boolean().nullable(),
  currentMode: z.enum(MODES),
  rightNow: z.string().nullable(),
  /** The verified badge: he confirmed a phone number (core/phone.ts). */
  verified: z.boolean(),
  /** The viewer has no profile opens left today and this one would need one: shown, but it does not open. */
  locked: z.boolean(),
});
export type GridCell = z.infer<typeof gridCellSchema>;

export const gridPageSchema = z.object({
  items: z.array(gridCellSchema),
  nextCursor: z.string().nullable(),
  /** The viewer's profile opens a day: 5 / 25 / -1 (unlimited). */
  clickableLimit: z.number().int(),
  /** Opens left today (-1 unlimited); matches, partners and men who liked the viewer never cost one. */
  opensLeft: z.number().int(),
  /** False until the viewer has shared a location: the grid is then empty. */
  hasLocation: z.boolean(),
});
export type GridPage = z.infer<typeof gridPageSchema>;

export const selectionBody = z.object({
  targetId: z.string().min(1).max(64),
  action: z.enum(['fuck', 'marry', 'kill']),
  super: z.boolean().default(false),
  /** Client-generated id: a retried selection is applied once. */
  clientId: z.string().min(8).max(64),
});
export type SelectionBody = z.infer<typeof selectionBody>;

export const matchSchema = z.object({
  id: z.string(),
  users: z.tuple([z.string(), z.string()]),
  matchType: z.enum(['perfect-fuck', 'perfect-marry', 'mixed']),
  userActions: z.record(z.string(), z.enum(['fuck', 'marry'])),
  matchedAt: z.string(),
  createdAt: z.string(),
  conversationId: z.string(),
  /** The other user, as a grid cell would show him (verified: his badge). */
  other: z.object({
    uid: z.string(),
    displayName: z.string().nullable(),
    photoURL: z.string().nullable(),
    ...cardPhotoFilterFields,
    verified: z.boolean(),
  }),
});
export type Match = z.infer<typeof matchSchema>;

export const selectionResultSchema = z.object({
  action: z.enum(['fuck', 'marry', 'kill']),
  super: z.boolean(),
  match: matchSchema.nullable(),
  /** Super selections left today for this tier (-1 unlimited). */
  superRemaining: z.number().int(),
});
export type SelectionResult = z.infer<typeof selectionResultSchema>;

export const pendingLikeSchema = z.object({
  /** Null for free users: the server does not send identities without Premium. */
  user: z
    .object({
      uid: z.string(),
      displayName: z.string().nullable(),
      age: z.number().int().nullable(),
      photoURL: z.string().nullable(),
      ...cardPhotoFilterFields,
      /** His verified badge (phone.ts). */
      verified: z.boolean(),
    })
    .nullable(),
  action: z.enum(['fuck', 'marry']),
  super: z.boolean(),
  at: z.string(),
  seen: z.boolean(),
});
export const likesPageSchema = z.object({
  count: z.number().int(),
  fuck: z.number().int(),
  marry: z.number().int(),
  unseen: z.number().int(),
  redacted: z.boolean(),
  items: z.array(pendingLikeSchema),
});
export type LikesPage = z.infer<typeof likesPageSchema>;
/** GET /badges: the Messages tab badge, unread conversations plus pending matches. */
export const badgesSchema = z.object({ messages: z.number().int() });
export type Badges = z.infer<typeof badgesSchema>;

/**
 * Super fuck / super marry allowance per day (our decision; the spec leaves it open):
 * free 1, premium 5, platinum unlimited.
 */
export const SUPER_PER_DAY = { free: 1, premium: 5, platinum: -1 } as const;
export const WHO_LIKES_YOU_UPSELL = 'See who likes you with Premium membership...';
export const CLICKABLE_UPSELL = 'Open more profiles with Premium membership...';
export const CLICKABLE_UPSELL_PLATINUM = 'Open every profile with Platinum membership...';
