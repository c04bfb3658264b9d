import { type Actor, DEFAULT_MODE_SETTINGS, type ProfilePhoto, type PublicProfile, presenceFor } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { filterPhoto, type Viewer } from '../../platform/present.ts';
import type { Storage } from '../../platform/storage.ts';
import { requireClickable } from '../discovery/service.ts';
import { likesOfAnswers, promptsByIds } from '../prompts/service.ts';
import { viewableProfile } from './access.ts';
import { toPhoto } from './present.ts';
import { listPhotos, type PhotoRow, type ViewedUserRow } from './repo.ts';

/** What GET /users/:userId shows in place of the mode when the owner hides it. */
export const HIDDEN_MODE = 'hidden';

/**
 * GET /users/:userId as a pipeline, so that privacy is applied in one tested step: the access
 * gate, the tier's clickable set (discovery), then load, then present.
 * Privacy is applied in `toPublicProfile` alone, which never copies email, anonymous id,
 * location or settings.
 */
export async function getPublicProfile(
  db: Db,
  storage: Storage,
  actor: Actor,
  ownerId: string,
  now: Date,
): Promise<PublicProfile> {
  const viewerId = actor.id;
  const view = await viewableProfile(db, actor, ownerId, now);
  // After the 404 gate, so a refusal never tells a blocked viewer that the profile exists.
  await requireClickable(db, actor, view.subject, now);
  const [photos, likes, prompts] = await Promise.all([
    // Another viewer never sees a photo moderation holds; its owner sees it marked in review.
    // The model's verdict on each goes to the viewer's content filter (toPublicProfile).
    ownerId === viewerId ? listPhotos(db, ownerId) : listPhotos(db, ownerId, { visibleOnly: true, withVerdict: true }),
    view.sections.dating ? likesOfAnswers(db, ownerId, viewerId) : null,
    view.sections.dating
      ? promptsByIds(
          db,
          view.owner.dating_profile.prompts.map((p) => p.promptId),
        )
      : null,
  ]);
  return toPublicProfile({
    ...view,
    viewer: actor,
    photos,
    likes: likes ?? { counts: new Map(), mine: new Set() },
    promptTexts: new Map([...(prompts ?? new Map())].map(([id, p]) => [id, p.text])),
    storage,
  });
}

export function toPublicProfile(p: {
  owner: ViewedUserRow;
  isSelf: boolean;
  sections: { dating: boolean; now: boolean };
  /** Cruising and health privacy (core profile.seeRightNow, profile.seeHealth); all shown when absent. */
  shows?: { rightNow: boolean; health: boolean };
  photos: PhotoRow[];
  likes: { counts: ReadonlyMap<string, number>; mine: ReadonlySet<string> };
  promptTexts: ReadonlyMap<string, string>;
  storage: Storage;
  /** Whose content filter applies to the photos (not on his own profile). */
  viewer: Viewer;
}): PublicProfile {
  const { owner: u, isSelf } = p;
  const shows = p.shows ?? { rightNow: true, health: true };
  const presence = presenceFor(
    { isOnline: u.is_online, lastSeen: u.last_seen },
    // No settings row yet means the defaults, which show both.
    { showOnlineStatus: u.show_online_status ?? true, showLastActive: u.show_last_active ?? true },
    isSelf,
  );
  const showMode = (u.mode_settings ?? DEFAULT_MODE_SETTINGS).privacySettings.showModeInProfile;
  const d = u.dating_profile;
  const n = u.now_profile;
  return {
    uid: u.id,
    isMe: isSelf,
    isDemo: u.id.startsWith('demo-'),
    // Whether he verified a phone number, never the number (nor his email).
    verified: u.phone_verified_at !== null,
    displayName: u.display_name,
    age: u.age,
    bio: u.bio,
    photos: p.photos.map((ph) => (isSelf ? toPhoto(ph, p.storage, true) : filteredPhoto(ph, p.storage, p.viewer))),
    currentMode: isSelf || showMode ? u.current_mode : HIDDEN_MODE,
    // Locations come with the grid issue; until then there is no distance to round.
    distance: null,
    isOnline: presence.isOnline,
    lastSeen: presence.lastSeen?.toISOString() ?? null,
    dating: p.sections.dating
      ? {
          prompts: d.prompts.map((a) => ({
            promptId: a.promptId,
            question: p.promptTexts.get(a.promptId) ?? a.question,
            answer: a.answer,
            likeCount: p.likes.counts.get(a.promptId) ?? 0,
            likedByMe: p.likes.mine.has(a.promptId),
          })),
          relationshipGoals: d.relationshipGoals,
          lookingFor: d.lookingFor,
          interests: d.interests,
          values: d.values,
          dealBreakers: d.dealBreakers,
          lifestyle: d.lifestyle,
        }
      : null,
    now: p.sections.now
      ? {
          quickStats: n.quickStats,
          position: n.position,
          lookingFor: n.lookingFor,
          availability: shows.rightNow ? n.availability : 'offline',
          rightNow: shows.rightNow ? n.rightNow : null,
          aboutMe: n.aboutMe,
          tribes: n.tribes,
          kinks: n.kinks,
          safetyInfo: shows.health ? n.safetyInfo : '',
        }
      : null,
  };
}

/**
 * Another man's photo through the viewer's content filter (platform/present.ts filterPhoto): a
 * hidden one keeps its place and shape but loses its address, so nothing in the answer can load it.
 */
function filteredPhoto(row: PhotoRow, storage: Storage, viewer: Viewer): ProfilePhoto {
  const photo = toPhoto(row, storage);
  const view = filterPhoto(viewer, { sensitive: row.sensitive === true, nudity: row.nudity ?? null });
  if (view.hidden) return { ...photo, url: null, hidden: view.hidden };
  return view.blurred ? { ...photo, blurred: true } : photo;
}
