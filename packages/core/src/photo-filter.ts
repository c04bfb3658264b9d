import { z } from 'zod';
import { chatPhotoView } from './safety.ts';

/**
 * A viewer's content filtering (settings safety.contentFiltering) as it applies to another man's
 * profile photo, everywhere the photo reaches him: grid cells, likes, matches, conversation
 * avatars, cruise lists and the full profile.
 */
export interface ContentFilter {
  enabled: boolean;
  strictMode: boolean;
  hideExplicitContent: boolean;
  blurSensitiveImages: boolean;
}

/**
 * What the model said of a profile photo: `sensitive` when it scored it explicit (nudity at or
 * above the hold threshold; such a photo is seen by others only once staff approved it), `nudity`
 * its score (null until scored, within a second of the upload).
 */
export interface PhotoVerdict {
  sensitive: boolean;
  nudity: number | null;
}

/**
 * How another man's profile photo reaches a viewer: the same filter as a chat photo (chatPhotoView).
 * 'hide': the server withholds its address and says why (`photoHidden: 'explicit'`), so the web
 * shows a placeholder and nothing in the answer can load the picture; 'blur': the address is sent,
 * marked `photoBlurred`, since he chose to reveal such photos by a tap; 'show': as is.
 */
export function profilePhotoView(filter: ContentFilter, photo: PhotoVerdict): 'show' | 'blur' | 'hide' {
  return chatPhotoView(filter, photo.sensitive, photo.nudity);
}

/** Why a photo's address is missing from an answer: the viewer's content filter hides it. */
export const PHOTO_HIDDEN_REASONS = ['explicit'] as const;
export type PhotoHiddenReason = (typeof PHOTO_HIDDEN_REASONS)[number];

/**
 * The two fields every card of another man carries beside `photoURL` (absent when neither applies):
 * `photoHidden` (photoURL is then null: show a placeholder, not the empty-avatar initial) and
 * `photoBlurred` (show it blurred).
 */
export const cardPhotoFilterFields = {
  photoHidden: z.enum(PHOTO_HIDDEN_REASONS).optional(),
  photoBlurred: z.literal(true).optional(),
};
