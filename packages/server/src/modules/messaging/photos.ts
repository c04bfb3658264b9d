import type { Readable } from 'node:stream';
import { chatPhotoView, type Settings } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import type { SignedUrls } from '../../platform/media/signed-urls.ts';
import type { Storage } from '../../platform/storage.ts';
import { settingsOf } from '../settings/service.ts';
import * as repo from './repo/photos.ts';

/** Where a chat photo is served: by its id alone (the URL names neither sender nor receiver). */
export const CHAT_PHOTO_PATH = '/api/v1/messages/photos/';
export const PHOTO_LINK_EXPIRED = 'This photo link has expired. Open the conversation again.';

type Filtering = Settings['safety']['contentFiltering'];

/** How one viewer's messages carry their photos: URLs signed for him, and his content filtering. */
export interface PhotoView {
  url(photoId: string): string;
  /** Whether a photo he received reaches him without its URL (his filtering blurs or hides it). */
  withheld(sensitive: boolean, nudity: number | null): boolean;
}

/**
 * Chat photos are private to the conversation: served only on a URL signed for one of its two
 * members (platform/media/signed-urls.ts), privately cached until the URL expires. Files stored
 * before this (under photos/messages/<sender>/, which /files/ no longer serves) keep their keys.
 */
export class ChatPhotos {
  constructor(private readonly deps: { db: Db; storage: Storage; signedUrls: SignedUrls }) {}

  url(photoId: string, viewerId: string): string {
    return this.deps.signedUrls.url(`${CHAT_PHOTO_PATH}${photoId}`, viewerId);
  }

  /** The photo view of `viewerId`: his settings' content filtering read once for a page of messages. */
  /**
   * The sender's view of his own message: his photos are never withheld from him, so his
   * filtering is not read (a send answers without that round trip).
   */
  senderView(senderId: string): PhotoView {
    return { url: (photoId) => this.url(photoId, senderId), withheld: () => false };
  }

  async viewFor(viewerId: string): Promise<PhotoView> {
    const filtering: Filtering | null = (await settingsOf(this.deps.db, viewerId))?.safety.contentFiltering ?? null;
    return {
      url: (photoId) => this.url(photoId, viewerId),
      // As his app decides (core chatPhotoView); unknown settings blur a sensitive photo.
      withheld: (sensitive, nudity) =>
        (filtering ? chatPhotoView(filtering, sensitive, nudity) : sensitive ? 'blur' : 'show') !== 'show',
    };
  }

  /** The bytes behind a signed URL: 404 for no such photo, 403 for a URL expired, altered or not a member's. */
  async open(photoId: string, e: string, s: string): Promise<{ stream: Readable; size: number; leftS: number }> {
    const photo = await repo.photoViewers(this.deps.db, photoId);
    if (!photo) throw notFound();
    const ok = this.deps.signedUrls.check(`${CHAT_PHOTO_PATH}${photoId}`, e, s, photo.viewers);
    if (!ok) throw forbidden(PHOTO_LINK_EXPIRED, 'link_expired');
    const file = await this.deps.storage.get(photo.storageKey);
    if (!file) throw notFound();
    return { ...file, leftS: ok.leftS };
  }

  /** A URL for the photo of a message he sent or received (a withheld one he chose to see). */
  async reveal(me: string, messageId: string): Promise<{ url: string }> {
    const photoId = await repo.photoOfMessage(this.deps.db, messageId, me);
    if (!photoId) throw notFound();
    return { url: this.url(photoId, me) };
  }
}
