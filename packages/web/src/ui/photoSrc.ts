import { placeholderAvatarDataUrl } from '@fmk/core';

/**
 * What stands in for a photo the viewer's content filter hides (the server sends no address for
 * it): a soft grey tile with a crossed-out eye, unlike the coloured initial of a man with no photo.
 */
export const HIDDEN_PHOTO_URL = `data:image/svg+xml,${encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 125"><rect width="100" height="125" fill="#ECECEF"/><g fill="none" stroke="#8A8A93" stroke-width="4" stroke-linecap="round" stroke-linejoin="round" transform="translate(30 42)"><path d="M2 20s8-15 18-15 18 15 18 15-8 15-18 15S2 20 2 20z"/><circle cx="20" cy="20" r="6"/><path d="M4 38 36 2"/></g></svg>`,
)}`;

export interface PhotoPerson {
  uid: string;
  photoURL: string | null;
  photoHidden?: string | undefined;
  photoBlurred?: boolean | undefined;
}

/**
 * The picture of a man's card: his photo (grid thumbnail), the hidden-photo tile when the viewer's
 * filter hides it, or the placeholder drawn from his id and name when he has none. Shared by
 * Avatar and the pre-painted first screen (early-paint.ts), so both load the same address.
 */
export function photoSrc(person: PhotoPerson, name: string): { src: string; hidden: boolean; blurred: boolean } {
  const hidden = person.photoHidden !== undefined;
  const blurred = !hidden && person.photoBlurred === true && person.photoURL !== null;
  return {
    src: hidden ? HIDDEN_PHOTO_URL : (person.photoURL ?? placeholderAvatarDataUrl(person.uid, name)),
    hidden,
    blurred,
  };
}
