import { z } from 'zod';
import { appPreferencesSchema, modeSettingsSchema } from './modes.ts';
import { PHOTO_HIDDEN_REASONS } from './photo-filter.ts';
import {
  datingProfileSchema,
  MAX_AGE,
  MIN_AGE,
  MODES,
  modeVisibilitySchema,
  nowProfileSchema,
  preferencesSchema,
  statsSchema,
} from './profile.ts';
import { TIERS } from './tiers.ts';

/**
 * The HTTP contract under /api/v1, shared by server (validation, OpenAPI) and web (typed client).
 * Routes:
 *   POST /auth/signup  POST /auth/login  POST /auth/logout  POST /auth/refresh  GET /auth/session
 *   GET  /auth/google/start  (redirect)   GET /auth/google/callback (redirect to /auth?result=CODE)
 *   POST /auth/redirect-result {code}
 *   GET  /me  PATCH /me  POST /me/photos (multipart "file")  DELETE /me/photos/:photoId
 *   PUT  /me/photos/order {photoIds}  POST /me/onboarding/complete
 *   GET  /prompts   GET /admin/me   GET /config
 */
export const photoSchema = z.object({
  id: z.string(),
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /**
   * Only on the owner's own photos: the moderation model held it and staff have not decided yet;
   * nobody else sees it meanwhile.
   */
  inReview: z.boolean().optional(),
  /**
   * Only on a chat photo: the moderation model scored it explicit. The receiver's app blurs it
   * (tap to reveal) or hides it by his safety settings; it is delivered either way.
   */
  sensitive: z.boolean().optional(),
  /**
   * Only on a chat photo he received, once scored: the model's nudity score (0–1), which his strict
   * mode (contentFiltering.strictMode) reads against core's STRICT_HOLD_AT.
   */
  nudity: z.number().min(0).max(1).optional(),
});
export type Photo = z.infer<typeof photoSchema>;

/**
 * One of another man's photos on his profile as a viewer gets it: `url` is null and `hidden` says
 * why when the viewer's content filter hides it (the web shows a placeholder in its place);
 * `blurred` when it is to be shown blurred until he taps it (photo-filter.ts profilePhotoView).
 */
export const profilePhotoSchema = photoSchema.extend({
  url: z.string().nullable(),
  hidden: z.enum(PHOTO_HIDDEN_REASONS).optional(),
  blurred: z.literal(true).optional(),
});
export type ProfilePhoto = z.infer<typeof profilePhotoSchema>;

/** The signed-in user's own record: the only place an email leaves the server. */
export const meSchema = z.object({
  uid: z.string(),
  anonymousId: z.string(),
  email: z.string(),
  /** Whether the person has opened the confirmation link mailed to `email`. */
  emailVerified: z.boolean(),
  /** A phone number confirmed by a texted code: the verified badge others see (core/phone.ts). */
  verified: z.boolean(),
  /** A new address asked for and not yet confirmed: `email` stays the account's until then. */
  pendingEmail: z.string().nullable(),
  displayName: z.string().nullable(),
  photoURL: z.string().nullable(),
  subscriptionTier: z.enum(TIERS),
  isActive: z.boolean(),
  onboardingComplete: z.boolean(),
  isBetaUser: z.boolean(),
  hasLifetimePremium: z.boolean(),
  betaJoinedAt: z.string().nullable(),
  age: z.number().int(),
  gender: z.string().nullable(),
  bio: z.string().nullable(),
  photos: z.array(photoSchema),
  interests: z.array(z.string()),
  intentions: z.array(z.string()),
  selectedFeatures: z.array(z.string()),
  currentMode: z.enum(MODES),
  /** appMode and the feature switches (spec section 3 "App preferences"). */
  appPreferences: appPreferencesSchema,
  modeSettings: modeSettingsSchema,
  height: z.number().int().nullable(),
  position: z.string().nullable(),
  tribes: z.array(z.string()),
  preferences: preferencesSchema,
  stats: statsSchema,
  datingProfile: datingProfileSchema,
  nowProfile: nowProfileSchema,
  modeVisibility: modeVisibilitySchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Me = z.infer<typeof meSchema>;

export const authResultSchema = z.object({ token: z.string(), expiresAt: z.string(), user: meSchema });
export type AuthResult = z.infer<typeof authResultSchema>;

const trimmed = (max: number) => z.string().trim().max(max);

/** PATCH /me: every field optional; nested profiles are merged shallowly. */
export const updateMeBody = z
  .object({
    displayName: trimmed(40).min(1, 'Enter a display name.'),
    age: z
      .number({ error: 'Enter your age.' })
      .int('Age must be a whole number.')
      .min(MIN_AGE, 'You must be 18 or older to use FMK.')
      .max(MAX_AGE, 'Enter a real age.'),
    bio: trimmed(1000),
    gender: trimmed(40).nullable(),
    interests: z.array(trimmed(60).min(1)).max(20),
    intentions: z.array(trimmed(60).min(1)).max(10),
    tribes: z.array(trimmed(60).min(1)).max(20),
    appPreferences: appPreferencesSchema.partial(),
    modeSettings: modeSettingsSchema.partial(),
    preferences: preferencesSchema.partial(),
    datingProfile: datingProfileSchema.partial(),
    nowProfile: nowProfileSchema.partial(),
    modeVisibility: modeVisibilitySchema.partial(),
  })
  .partial()
  .strict();
export type UpdateMe = z.infer<typeof updateMeBody>;

export const photoOrderBody = z.object({ photoIds: z.array(z.string()).max(20) });

export const promptSchema = z.object({
  id: z.string(),
  text: z.string(),
  category: z.string(),
  isActive: z.boolean(),
  usageCount: z.number().int(),
  likeCount: z.number().int(),
});
export type Prompt = z.infer<typeof promptSchema>;

/** An error response body: `message` is fit to show to a person. */
export const apiErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** GET /config: what the web app needs to know about this server. */
export const publicConfigSchema = z.object({
  googleEnabled: z.boolean(),
  vapidPublicKey: z.string().nullable(),
  beta: z.object({ eligible: z.boolean() }),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** GET /auth/session: the signed-in user and when the current access token expires. */
export const sessionInfoSchema = z.object({ user: meSchema, expiresAt: z.string() });
/** GET /auth/check: the token's session is live; when the token expires. */
export const tokenCheckSchema = z.object({ expiresAt: z.string() });
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/**
 * GET /admin/me: the caller's staff role. `permissions` is the record's explicit list, which
 * overrides the role's defaults (spec section 6); null means the role's defaults apply.
 */

/** POST /me/mode: a profile-mode switch, logged as a mode_switch event with from/to labels. */
export const modeSwitchBody = z.object({ mode: z.enum(MODES), trigger: z.enum(['manual', 'auto']).default('manual') });
export type ModeSwitch = z.infer<typeof modeSwitchBody>;

export const publicPromptAnswerSchema = z.object({
  promptId: z.string(),
  question: z.string(),
  answer: z.string(),
  likeCount: z.number().int(),
  likedByMe: z.boolean(),
});

/**
 * GET /users/:userId: another user's profile as a viewer may see it. Never an email or a
 * position: distance is a rounded label, sections follow the owner's modeVisibility.
 */
export const publicProfileSchema = z.object({
  uid: z.string(),
  isMe: z.boolean(),
  isDemo: z.boolean(),
  /** The verified badge: he confirmed a phone number (core/phone.ts). */
  verified: z.boolean(),
  displayName: z.string().nullable(),
  age: z.number().int().nullable(),
  bio: z.string().nullable(),
  photos: z.array(profilePhotoSchema),
  currentMode: z.string(),
  /** Rounded distance label ('< 1 km', '3 km', '10+ km'); null when unknown or hidden. */
  distance: z.string().nullable(),
  /** null when the owner hides their online status. */
  isOnline: z.boolean().nullable(),
  /** ISO time; null when hidden or never seen. */
  lastSeen: z.string().nullable(),
  dating: z
    .object({
      prompts: z.array(publicPromptAnswerSchema),
      relationshipGoals: z.array(z.string()),
      lookingFor: z.array(z.string()),
      interests: z.array(z.string()),
      values: z.array(z.string()),
      dealBreakers: z.array(z.string()),
      lifestyle: z.array(z.string()),
    })
    .nullable(),
  now: nowProfileSchema.omit({ selectedPhotos: true }).nullable(),
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;

export const promptLikeResultSchema = z.object({ liked: z.boolean(), likeCount: z.number().int() });

/** Admin prompt management (spec section 6): create, update, delete, list all, analytics, seed. */
export const createPromptBody = z.object({
  text: z.string().trim().min(3, 'Write the prompt text.').max(200),
  category: z
    .string()
    .trim()
    .min(1)
    .max(40)
    // A JSON object's key that a reader's parse turns into its prototype: the counts by category
    // would lose it.
    .refine((c) => c !== '__proto__', 'Choose another category name.')
    .optional(),
  isActive: z.boolean().optional(),
});
export const updatePromptBody = createPromptBody.partial().strict();
export const promptAnalyticsSchema = z.object({
  totalPrompts: z.number().int(),
  activePrompts: z.number().int(),
  totalUsage: z.number().int(),
  totalLikes: z.number().int(),
  topPrompts: z.array(promptSchema),
  byCategory: z.record(z.string(), z.number().int()),
});
export type PromptAnalytics = z.infer<typeof promptAnalyticsSchema>;
