import { type AppPreferences, DEFAULT_MODE_SETTINGS, type Me, type ModeSettings, type Photo } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import type { UserRow } from '../../db/schema.ts';
import type { Storage } from '../../platform/storage.ts';
import { countMessagesSent, findUserById, listPhotos, type PhotoRow } from './repo.ts';

/** A photo answer; `own` (the owner looking at his own) adds whether moderation holds it. */
export function toPhoto(row: PhotoRow, storage: Storage, own = false): Photo {
  const photo: Photo = { id: row.id, url: storage.url(row.storage_key), width: row.width, height: row.height };
  return own ? { ...photo, inReview: row.held === true } : photo;
}

/** The signed-in user's own record, read fresh (undefined when there is no such user). */
export async function loadMe(db: Db, userId: string, storage: Storage): Promise<Me | undefined> {
  const [user, photos, messages] = await Promise.all([
    findUserById(db, userId),
    listPhotos(db, userId),
    countMessagesSent(db, userId),
  ]);
  return user ? toMe(user, photos, storage, messages) : undefined;
}

/** The signed-in user's own record (the only response that carries their email). */
export function toMe(u: UserRow, photos: PhotoRow[], storage: Storage, messagesSent: number): Me {
  return {
    uid: u.id,
    anonymousId: u.anonymous_id ?? '',
    email: u.email,
    emailVerified: u.email_verified_at !== null,
    verified: u.phone_verified_at !== null,
    pendingEmail: u.pending_email,
    displayName: u.display_name,
    photoURL: photos[0] ? storage.url(photos[0].storage_key) : u.photo_url,
    subscriptionTier: u.subscription_tier,
    isActive: u.is_active,
    onboardingComplete: u.onboarding_complete,
    isBetaUser: u.is_beta_user,
    hasLifetimePremium: u.has_lifetime_premium,
    betaJoinedAt: u.beta_joined_at?.toISOString() ?? null,
    age: u.age,
    gender: u.gender,
    bio: u.bio,
    photos: photos.map((p) => toPhoto(p, storage, true)),
    interests: u.interests,
    intentions: u.intentions,
    selectedFeatures: u.selected_features,
    currentMode: u.current_mode,
    appPreferences: appPreferencesOf(u),
    modeSettings: modeSettingsOf(u),
    height: u.now_profile.quickStats.height,
    position: u.now_profile.position,
    tribes: u.tribes,
    preferences: u.preferences,
    stats: { ...u.stats, messages: messagesSent },
    datingProfile: u.dating_profile,
    nowProfile: u.now_profile,
    modeVisibility: u.mode_visibility,
    createdAt: u.created_at.toISOString(),
    updatedAt: u.updated_at.toISOString(),
  };
}

export function appPreferencesOf(u: UserRow): AppPreferences {
  return {
    appMode: u.app_mode,
    cruisingEnabled: u.cruising_enabled,
    healthEnabled: u.health_enabled,
    activityTrackingEnabled: u.activity_tracking_enabled,
    rightNowEnabled: u.right_now_enabled,
  };
}

/**
 * Stored mode settings over the defaults (a user who never saved any has none stored).
 * useMetric is not stored twice: it reads the profile's preferences.units.
 */
export function modeSettingsOf(u: Pick<UserRow, 'mode_settings' | 'preferences'>): ModeSettings {
  return { ...DEFAULT_MODE_SETTINGS, ...u.mode_settings, useMetric: u.preferences.units === 'metric' };
}
