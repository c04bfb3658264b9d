import { randomUUID } from 'node:crypto';
import {
  type Clock,
  datingProfileSchema,
  effectiveTier,
  type Me,
  Messages,
  MISSING_FIELD_MESSAGES,
  type ModeSwitch,
  missingProfileFields,
  modeLabel,
  modeSettingsSchema,
  modeVisibilitySchema,
  nowProfileSchema,
  type Photo,
  photoAllowance,
  preferencesSchema,
  type UpdateMe,
  updateAppPreferences,
} from '@fmk/core';
import type { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { UserRow, UserUpdate } from '../../db/schema.ts';
import { loadActor, requireAccess } from '../../platform/access.ts';
import { AppError, badRequest, limitReached, notFound, unauthorized } from '../../platform/errors.ts';
import { loadRules } from '../../platform/flags.ts';
import { thumbnailKey } from '../../platform/media/files.ts';
import { reencodePhoto } from '../../platform/media/image.ts';
import type { ContentHandler, Moderation } from '../../platform/moderation/moderation.ts';
import type { Storage } from '../../platform/storage.ts';
import { answersChanged, promptsByIds } from '../prompts/service.ts';
import { appPreferencesOf, loadMe, modeSettingsOf, toPhoto } from './present.ts';
import {
  countPhotos,
  deleteOwnPhoto,
  findUserById,
  insertModeEvent,
  insertPhoto,
  listPhotos,
  lockUser,
  nextPhotoPosition,
  photoOwner,
  setPhotoHeld,
  setPhotoPositions,
  updateUser,
} from './repo.ts';

/**
 * The signed-in user's own record, read through `db`, which may be the caller's transaction (a
 * sign-in answers with it); undefined when there is no such user.
 */
export function readMe(db: Db, userId: string, storage: Storage): Promise<Me | undefined> {
  return loadMe(db, userId, storage);
}

/** Every file of the user's profile photos, thumbnails included: his files, for whatever removes his data. */
export async function profilePhotoFiles(db: Db, userId: string): Promise<string[]> {
  return (await listPhotos(db, userId)).flatMap((p) => [p.storage_key, thumbnailKey(p.storage_key)]);
}

export interface ProfileServiceDeps {
  db: Db;
  clock: Clock;
  storage: Storage;
  moderation: Moderation;
}

/** The signed-in user's own profile and photos. Every method acts on the caller's own record only. */
export class ProfileService {
  constructor(private readonly deps: ProfileServiceDeps) {}

  async getMe(userId: string): Promise<Me> {
    const me = await loadMe(this.deps.db, userId, this.deps.storage);
    if (!me) throw unauthorized();
    return me;
  }

  /**
   * PATCH /me. Nested sections merge shallowly into what is stored and the result is validated
   * whole, so a partial update can never leave an invalid profile behind.
   */
  async updateMe(userId: string, patch: UpdateMe): Promise<Me> {
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      const user = await this.lockedUser(trx, userId);
      const photoIds = new Set((await listPhotos(trx, userId)).map((p) => p.id));
      const values: UserUpdate = { updated_at: now };

      if (patch.displayName !== undefined) values.display_name = patch.displayName;
      if (patch.age !== undefined) values.age = patch.age;
      if (patch.bio !== undefined) values.bio = patch.bio;
      if (patch.gender !== undefined) values.gender = patch.gender;
      if (patch.interests !== undefined) values.interests = JSON.stringify(patch.interests);
      if (patch.intentions !== undefined) values.intentions = JSON.stringify(patch.intentions);
      if (patch.tribes !== undefined) values.tribes = JSON.stringify(patch.tribes);

      if (patch.appPreferences) {
        // Through core's rule, so choosing marry turns cruising off whatever else the patch says.
        const next = updateAppPreferences(appPreferencesOf(user), patch.appPreferences);
        values.app_mode = next.appMode;
        values.cruising_enabled = next.cruisingEnabled;
        values.health_enabled = next.healthEnabled;
        values.activity_tracking_enabled = next.activityTrackingEnabled;
        values.right_now_enabled = next.rightNowEnabled;
      }
      // Units have one home, preferences.units; modeSettings.useMetric writes through to it
      // unless the same patch sets the units directly.
      const preferencesPatch = { ...patch.preferences };
      if (patch.modeSettings?.useMetric !== undefined && preferencesPatch.units === undefined) {
        preferencesPatch.units = patch.modeSettings.useMetric ? 'metric' : 'imperial';
      }
      if (patch.modeSettings) {
        const before = modeSettingsOf(user);
        const next = validated(modeSettingsSchema, { ...before, ...patch.modeSettings }, 'modeSettings');
        // Hiding the mode is app mode visibility, a Premium privacy control (spec section 6; the
        // same switch as PATCH /me/settings privacy.showCurrentMode).
        if (before.privacySettings.showModeInProfile && !next.privacySettings.showModeInProfile) {
          const actor = await loadActor(trx, userId);
          if (!actor) throw unauthorized();
          requireAccess(actor, 'privacy.control');
        }
        values.mode_settings = JSON.stringify(next);
      }
      if (Object.keys(preferencesPatch).length > 0) {
        const preferences = validated(preferencesSchema, { ...user.preferences, ...preferencesPatch }, 'preferences');
        if (preferences.ageRange[0] > preferences.ageRange[1]) {
          throw badRequest('The youngest age must not be above the oldest.', { 'preferences.ageRange': 'Invalid range' });
        }
        values.preferences = JSON.stringify(preferences);
      }
      if (patch.modeVisibility) {
        values.mode_visibility = JSON.stringify(
          validated(modeVisibilitySchema, { ...user.mode_visibility, ...patch.modeVisibility }, 'modeVisibility'),
        );
      }
      if (patch.nowProfile) {
        const nowProfile = validated(nowProfileSchema, { ...user.now_profile, ...patch.nowProfile }, 'nowProfile');
        checkOwnPhotos(nowProfile.selectedPhotos, photoIds, 'nowProfile.selectedPhotos');
        values.now_profile = JSON.stringify(nowProfile);
      }
      if (patch.datingProfile) {
        const datingProfile = validated(datingProfileSchema, { ...user.dating_profile, ...patch.datingProfile }, 'datingProfile');
        checkOwnPhotos(datingProfile.selectedPhotos, photoIds, 'datingProfile.selectedPhotos');
        if (patch.datingProfile.prompts) {
          datingProfile.prompts = await this.checkPrompts(trx, user, datingProfile.prompts, now);
        }
        values.dating_profile = JSON.stringify(datingProfile);
      }
      await updateUser(trx, userId, values);
    });
    return this.getMe(userId);
  }

  /**
   * POST /me/mode (spec section 4 "Mode switching"): sets currentMode and logs the switch with
   * its from/to labels. Switching to the mode one is already in changes and logs nothing.
   */
  async switchMode(userId: string, change: ModeSwitch): Promise<Me> {
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      const user = await this.lockedUser(trx, userId);
      if (user.current_mode === change.mode) return;
      await updateUser(trx, userId, { current_mode: change.mode, updated_at: now });
      await insertModeEvent(trx, {
        userId,
        fromLabel: modeLabel(user.current_mode),
        toLabel: modeLabel(change.mode),
        trigger: change.trigger,
        at: now,
      });
    });
    return this.getMe(userId);
  }

  /** Marks onboarding complete once the stored profile has every field of spec section 2. */
  async completeOnboarding(userId: string): Promise<Me> {
    await this.deps.db.transaction().execute(async (trx) => {
      const user = await this.lockedUser(trx, userId);
      const photos = await listPhotos(trx, userId);
      const missing = missingProfileFields({
        displayName: user.display_name,
        age: user.age,
        bio: user.bio,
        photos,
        nowProfile: user.now_profile,
        datingProfile: user.dating_profile,
      });
      if (missing.length > 0) {
        throw new AppError(
          400,
          'profile_incomplete',
          Messages.profileIncomplete,
          Object.fromEntries(missing.map((f) => [f, MISSING_FIELD_MESSAGES[f]])),
        );
      }
      if (!user.onboarding_complete)
        await updateUser(trx, userId, { onboarding_complete: true, updated_at: this.deps.clock.now() });
    });
    return this.getMe(userId);
  }

  /** Adds a photo: bytes checked and re-encoded first, then the tier limit under the user's row lock. */
  async addPhoto(userId: string, upload: Buffer): Promise<Photo> {
    const { db, storage } = this.deps;
    // A cheap early refusal so a user at the limit does not pay for the re-encode; the
    // authoritative check is repeated under the lock below.
    const current = await findUserById(db, userId);
    if (!current) throw unauthorized();
    await assertPhotoAllowed(db, current, await countPhotos(db, userId));

    const encoded = await reencodePhoto(upload);
    const id = randomUUID();
    const storageKey = `photos/${userId}/${id}.webp`;
    let stored = false;
    try {
      await db.transaction().execute(async (trx) => {
        const user = await this.lockedUser(trx, userId);
        await assertPhotoAllowed(trx, user, await countPhotos(trx, userId));
        const position = await nextPhotoPosition(trx, userId);
        await storage.put(storageKey, encoded.data, 'image/webp');
        stored = true;
        await insertPhoto(trx, {
          id,
          userId,
          storageKey,
          width: encoded.width,
          height: encoded.height,
          bytes: encoded.data.length,
          position,
        });
        await this.syncPrimaryPhoto(trx, userId);
      });
    } catch (err) {
      if (stored) await storage.delete(storageKey).catch(() => undefined);
      throw err;
    }
    // Scored in the background once committed: the upload answers now (platform/moderation).
    this.deps.moderation.enqueue({
      contentType: 'profile_photo',
      contentId: id,
      userId,
      storageKey,
      image: encoded.data,
      text: [current.display_name, current.bio].filter(Boolean).join('\n'),
    });
    return toPhoto({ id, storage_key: storageKey, width: encoded.width, height: encoded.height, held: false }, storage, true);
  }

  /**
   * What moderation does to a profile photo (registered with platform/moderation): held, it leaves
   * everything others see (users.photo_url follows the first visible photo); approved, it comes
   * back; rejected, it is removed like a deletion by its owner.
   */
  moderationHandler(): ContentHandler {
    return {
      scored: async (trx, item) => {
        const owner = await photoOwner(trx, item.content_id);
        if (owner) await this.lockedUser(trx, owner).then(() => this.syncPrimaryPhoto(trx, owner));
      },
      flag: async (trx, item) => {
        const owner = await photoOwner(trx, item.content_id);
        if (!owner) return;
        await this.lockedUser(trx, owner);
        await setPhotoHeld(trx, item.content_id, true);
        await this.syncPrimaryPhoto(trx, owner);
      },
      approve: async (trx, item) => {
        const owner = await photoOwner(trx, item.content_id);
        if (!owner) return;
        await this.lockedUser(trx, owner);
        await setPhotoHeld(trx, item.content_id, false);
        await this.syncPrimaryPhoto(trx, owner);
      },
      reject: async (trx, item) => {
        const owner = await photoOwner(trx, item.content_id);
        if (!owner) return [];
        const key = await this.removePhoto(trx, owner, item.content_id);
        return key ? [key, thumbnailKey(key)] : [];
      },
    };
  }

  async deletePhoto(userId: string, photoId: string): Promise<void> {
    const key = await this.deps.db.transaction().execute(async (trx) => {
      const storageKey = await this.removePhoto(trx, userId, photoId);
      if (!storageKey) throw notFound('Photo not found');
      return storageKey;
    });
    // After commit: a failed file removal leaves an orphan file, never a row without its file.
    await this.deps.storage.delete(key).catch(() => undefined);
    await this.deps.storage.delete(thumbnailKey(key)).catch(() => undefined);
  }

  /** Removes one of the user's photos in `trx` (the files are the caller's, after commit); its key, or null. */
  private async removePhoto(trx: Db, userId: string, photoId: string): Promise<string | null> {
    const user = await this.lockedUser(trx, userId);
    const storageKey = await deleteOwnPhoto(trx, userId, photoId);
    if (!storageKey) return null;
    // A deleted photo leaves the mode profiles that selected it.
    const values: UserUpdate = { updated_at: this.deps.clock.now() };
    if (user.dating_profile.selectedPhotos.includes(photoId)) {
      values.dating_profile = JSON.stringify({
        ...user.dating_profile,
        selectedPhotos: user.dating_profile.selectedPhotos.filter((p) => p !== photoId),
      });
    }
    if (user.now_profile.selectedPhotos.includes(photoId)) {
      values.now_profile = JSON.stringify({
        ...user.now_profile,
        selectedPhotos: user.now_profile.selectedPhotos.filter((p) => p !== photoId),
      });
    }
    await updateUser(trx, userId, values);
    await this.syncPrimaryPhoto(trx, userId);
    return storageKey;
  }

  async reorderPhotos(userId: string, photoIds: readonly string[]): Promise<Me> {
    await this.deps.db.transaction().execute(async (trx) => {
      await this.lockedUser(trx, userId);
      const existing = new Set((await listPhotos(trx, userId)).map((p) => p.id));
      const given = new Set(photoIds);
      if (given.size !== photoIds.length || given.size !== existing.size || photoIds.some((id) => !existing.has(id))) {
        throw badRequest(Messages.photoOrderInvalid, { photoIds: Messages.photoOrderInvalid });
      }
      await setPhotoPositions(trx, userId, photoIds);
      await this.syncPrimaryPhoto(trx, userId);
    });
    return this.getMe(userId);
  }

  private async lockedUser(trx: Db, userId: string): Promise<UserRow> {
    const user = await lockUser(trx, userId);
    if (!user) throw unauthorized();
    return user;
  }

  /**
   * users.photo_url mirrors the first photo others may see (grid, cruise, matches, conversations),
   * never a held one; the model's verdict on it goes beside it, for each viewer's content filter.
   */
  private async syncPrimaryPhoto(trx: Db, userId: string): Promise<void> {
    const [first] = await listPhotos(trx, userId, { visibleOnly: true, withVerdict: true });
    await updateUser(trx, userId, {
      photo_url: first ? this.deps.storage.url(first.storage_key) : null,
      photo_nudity: first?.nudity ?? null,
      photo_sensitive: first?.sensitive === true,
    });
  }

  /**
   * Answers must name existing prompts, each once. Newly added prompts must be active; one that an
   * admin deactivated or deleted after the user answered it may stay. The question text is the
   * prompt's own (the stored one for a deleted prompt). Usage counts follow the change, and an
   * answer taken off the profile takes its likes with it.
   */
  private async checkPrompts(trx: Db, user: UserRow, answers: z.infer<typeof datingProfileSchema>['prompts'], now: Date) {
    const ids = answers.map((a) => a.promptId);
    if (new Set(ids).size !== ids.length)
      throw badRequest(Messages.promptDuplicate, { 'datingProfile.prompts': Messages.promptDuplicate });
    const before = new Set(user.dating_profile.prompts.map((p) => p.promptId));
    const found = await promptsByIds(trx, ids);
    for (const [i, id] of ids.entries()) {
      const prompt = found.get(id);
      if (before.has(id)) continue;
      if (!prompt?.isActive) {
        throw badRequest(Messages.promptUnavailable, { [`datingProfile.prompts.${i}.promptId`]: Messages.promptUnavailable });
      }
    }
    const after = new Set(ids);
    const removed = [...before].filter((id) => !after.has(id));
    await answersChanged(trx, user.id, { added: ids.filter((id) => !before.has(id)), removed }, now);
    const stored = new Map(user.dating_profile.prompts.map((p) => [p.promptId, p.question]));
    return answers.map((a) => ({ ...a, question: found.get(a.promptId)?.text ?? stored.get(a.promptId) ?? a.question }));
  }
}

/** The photo limit of his tier, read from the flag store (spec section 6: 3 / 8 / 20). */
async function assertPhotoAllowed(db: Db, user: UserRow, count: number): Promise<void> {
  const tierUser = { subscriptionTier: user.subscription_tier, hasLifetimePremium: user.has_lifetime_premium };
  const rules = await loadRules(db, effectiveTier(tierUser));
  const allowance = photoAllowance(tierUser, count, rules.limits.photos);
  if (!allowance.allowed) throw limitReached(allowance.message);
}

function checkOwnPhotos(selected: readonly string[], own: ReadonlySet<string>, field: string): void {
  if (selected.some((id) => !own.has(id)))
    throw badRequest(Messages.selectedPhotosInvalid, { [field]: Messages.selectedPhotosInvalid });
}

/** Parses a merged section; the first problem becomes the message, each one a field entry. */
function validated<T>(schema: z.ZodType<T>, value: unknown, section: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const fields: Record<string, string> = {};
  for (const issue of r.error.issues) fields[[section, ...issue.path.map(String)].join('.')] ??= issue.message;
  throw badRequest(r.error.issues[0]?.message ?? 'Invalid input', fields);
}
