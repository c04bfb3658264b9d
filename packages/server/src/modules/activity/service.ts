import { randomUUID } from 'node:crypto';
import {
  ACTIVITY_LOGS_LIMIT,
  type ActivityLog,
  type ActivityLogData,
  type ActivityStats,
  type Actor,
  activityStats,
  type Clock,
  CONTACTS_LIMIT,
  type Contact,
  type ContactData,
  type createActivityLogBody,
  type createContactBody,
  localTimeIn,
  type updateActivityLogBody,
  type updateContactBody,
} from '@fmk/core';
import type { z } from 'zod';
import type { Db } from '../../db/index.ts';
import { loadSubject, requireAccess } from '../../platform/access.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { reencodePhoto } from '../../platform/media/image.ts';
import type { Storage } from '../../platform/storage.ts';
import { OwnRecords, timeZoneOf, type Vault } from '../../platform/vault.ts';
import { allActivityLogs, allContacts, knowsOnFmk, presentContact, presentLog, type StoredContact } from './repo.ts';

/** Every activity log of the user, newest first (health reads them for its suggestion and the export). */
export function activityLogsOf(db: Db, vault: Vault, userId: string): Promise<ActivityLog[]> {
  return allActivityLogs(db, vault, userId);
}

/** Every contact of the user with its figures; `logs` when the caller already read them. */
export function contactsOf(db: Db, vault: Vault, userId: string, logs?: readonly ActivityLog[]): Promise<Contact[]> {
  return allContacts(db, vault, userId, logs);
}

/** The storage keys of the user's contact photos (sealed files deleted with his data). */
export async function contactPhotoKeys(db: Db, vault: Vault, userId: string): Promise<string[]> {
  return (await vault.list<StoredContact>(db, userId, 'contact')).flatMap((c) => c.data.photoKey ?? []);
}

/**
 * An erased user's trace in other men's contact books: a contact linked to him keeps its name and
 * notes (its owner's own record) but no longer points at the erased account. Only men he matched
 * or talked with can have linked him (knowsOnFmk), so only their books are read.
 */
export async function unlinkContactsTo(db: Db, vault: Vault, ownerIds: readonly string[], userId: string): Promise<void> {
  for (const owner of new Set(ownerIds)) {
    for (const c of await vault.list<StoredContact>(db, owner, 'contact')) {
      if (c.data.userId === userId) await vault.update(db, owner, 'contact', c.id, { ...c.data, userId: null });
    }
  }
}

export interface ActivityServiceDeps {
  db: Db;
  clock: Clock;
  vault: Vault;
  storage: Storage;
}

export const CONTACT_NOT_FOUND = 'Contact not found';
export const ACTIVITY_NOT_FOUND = 'Activity not found';
export const PARTNERS_NOT_CONTACTS = 'Choose partners from your contacts.';
export const LINKED_USER_NOT_FOUND = 'There is no FMK user with that id.';
export const CONTACT_PHOTO_NOT_FOUND = 'This contact has no photo.';

/** Where an uploaded contact photo is read from: an authenticated API path, never a public /files URL. */
export const contactPhotoPath = (contactId: string, photoKey: string) =>
  `/api/v1/activity/contacts/${contactId}/photo?v=${photoKey.slice(-13, -5)}`;

/**
 * Contacts and the activity log (spec sections 3, 9). Only the owner ever
 * reads them: every query is by the caller's own id, so another user's (or any staff member's)
 * request for a record id finds nothing (404).
 */
export class ActivityService {
  private readonly contacts: OwnRecords<StoredContact>;
  private readonly logs: OwnRecords<ActivityLogData>;

  constructor(private readonly deps: ActivityServiceDeps) {
    this.contacts = new OwnRecords(deps.vault, 'contact', CONTACT_NOT_FOUND);
    this.logs = new OwnRecords(deps.vault, 'activity_log', ACTIVITY_NOT_FOUND);
  }

  async listContacts(actor: Actor): Promise<Contact[]> {
    requireAccess(actor, 'activity.use');
    const userId = actor.id;
    return (await allContacts(this.deps.db, this.deps.vault, userId)).slice(0, CONTACTS_LIMIT);
  }

  async createContact(actor: Actor, body: z.infer<typeof createContactBody>): Promise<Contact> {
    requireAccess(actor, 'activity.use');
    const userId = actor.id;
    await this.checkLinkedUser(actor, body.userId);
    const data: ContactData = { ...body };
    const rec = await this.deps.vault.insert(this.deps.db, userId, 'contact', data);
    return presentContact(rec, []);
  }

  async updateContact(actor: Actor, id: string, patch: z.infer<typeof updateContactBody>): Promise<Contact> {
    requireAccess(actor, 'activity.use');
    const userId = actor.id;
    const { db, vault } = this.deps;
    const rec = await this.contacts.get(db, userId, id);
    if (patch.userId !== undefined) await this.checkLinkedUser(actor, patch.userId);
    const data: StoredContact = { ...rec.data, ...patch };
    // A new photoURL (or null) replaces the uploaded photo, whose file then goes.
    const dropped = patch.photoURL !== undefined && patch.photoURL !== rec.data.photoURL ? rec.data.photoKey : null;
    if (dropped) data.photoKey = null;
    await vault.update(db, userId, 'contact', id, data);
    if (dropped) await this.deps.storage.delete(dropped).catch(() => undefined);
    return presentContact({ ...rec, data }, await allActivityLogs(db, vault, userId));
  }

  /** Deletes the contact and his photo; past log entries keep the id and show him as a removed contact. */
  async deleteContact(actor: Actor, id: string): Promise<void> {
    requireAccess(actor, 'activity.use');
    const userId = actor.id;
    const rec = await this.contacts.get(this.deps.db, userId, id);
    await this.contacts.delete(this.deps.db, userId, id);
    if (rec.data.photoKey) await this.deps.storage.delete(rec.data.photoKey).catch(() => undefined);
  }

  /**
   * A contact's photo: re-encoded to WebP without metadata like every photo, then sealed
   * under the owner's data key and stored outside photos/, so the public /files route never serves
   * it; only contactPhoto below, for the owner, opens it.
   */
  async setContactPhoto(actor: Actor, id: string, upload: Buffer): Promise<Contact> {
    requireAccess(actor, 'activity.use');
    const userId = actor.id;
    const { db, vault, storage } = this.deps;
    const rec = await this.contacts.get(db, userId, id);
    const encoded = await reencodePhoto(upload);
    const photoKey = `private/contacts/${userId}/${randomUUID()}.bin`;
    await storage.put(photoKey, await vault.sealFile(db, userId, photoKey, encoded.data), 'application/octet-stream');
    const data: StoredContact = { ...rec.data, photoKey, photoURL: contactPhotoPath(id, photoKey) };
    try {
      await this.contacts.update(db, userId, id, data);
    } catch (err) {
      await storage.delete(photoKey).catch(() => undefined);
      throw err;
    }
    if (rec.data.photoKey) await storage.delete(rec.data.photoKey).catch(() => undefined);
    return presentContact({ ...rec, data }, await allActivityLogs(db, vault, userId));
  }

  /** The WebP bytes of the caller's own contact's photo; anyone else's contact id is not found. */
  async contactPhoto(actor: Actor, id: string): Promise<Buffer> {
    requireAccess(actor, 'activity.use');
    const userId = actor.id;
    const { db, vault, storage } = this.deps;
    const rec = await this.contacts.get(db, userId, id);
    const object = rec.data.photoKey ? await storage.get(rec.data.photoKey) : null;
    if (!object) throw notFound(CONTACT_PHOTO_NOT_FOUND);
    const sealed = Buffer.concat(await object.stream.toArray());
    const bytes = await vault.openFile(db, userId, rec.data.photoKey!, sealed);
    if (!bytes) throw notFound(CONTACT_PHOTO_NOT_FOUND);
    return bytes;
  }

  async listLogs(actor: Actor): Promise<ActivityLog[]> {
    requireAccess(actor, 'activity.use');
    const userId = actor.id;
    return (await allActivityLogs(this.deps.db, this.deps.vault, userId)).slice(0, ACTIVITY_LOGS_LIMIT);
  }

  async createLog(actor: Actor, body: z.infer<typeof createActivityLogBody>): Promise<ActivityLog> {
    requireAccess(actor, 'activity.use');
    const userId = actor.id;
    const partners = [...new Set(body.partners)];
    await this.checkPartners(userId, partners);
    const data: ActivityLogData = { ...body, partners, activities: [...new Set(body.activities)] };
    return presentLog(await this.deps.vault.insert(this.deps.db, userId, 'activity_log', data));
  }

  async updateLog(actor: Actor, id: string, patch: z.infer<typeof updateActivityLogBody>): Promise<ActivityLog> {
    requireAccess(actor, 'activity.use');
    const userId = actor.id;
    const { db, vault } = this.deps;
    const rec = await this.logs.get(db, userId, id);
    const data: ActivityLogData = { ...rec.data, ...patch };
    if (patch.partners) {
      data.partners = [...new Set(patch.partners)];
      // Partners already on the entry may have been deleted since; only new ones must be contacts.
      await this.checkPartners(
        userId,
        data.partners.filter((p) => !rec.data.partners.includes(p)),
      );
    }
    await vault.update(db, userId, 'activity_log', id, data);
    return presentLog({ ...rec, data });
  }

  async deleteLog(actor: Actor, id: string): Promise<void> {
    requireAccess(actor, 'activity.use');
    const userId = actor.id;
    await this.logs.delete(this.deps.db, userId, id);
  }

  /** Spec section 9 stats over the whole log, "today" in the user's time zone. */
  async stats(actor: Actor): Promise<ActivityStats> {
    requireAccess(actor, 'activity.use');
    const userId = actor.id;
    const { db, vault, clock } = this.deps;
    const today = localTimeIn(clock.now(), await timeZoneOf(db, userId)).date;
    return activityStats(await allActivityLogs(db, vault, userId), today);
  }

  private async checkPartners(userId: string, partners: readonly string[]): Promise<void> {
    if (partners.length === 0) return;
    const contacts = await this.deps.vault.list<ContactData>(this.deps.db, userId, 'contact');
    const mine = new Set(contacts.map((c) => c.id));
    if (!partners.every((p) => mine.has(p))) throw badRequest(PARTNERS_NOT_CONTACTS, { partners: 'unknown contact' });
  }

  private async checkLinkedUser(actor: Actor, linked: string | null): Promise<void> {
    const userId = actor.id;
    if (!linked) return;
    if (linked === userId) throw badRequest(LINKED_USER_NOT_FOUND, { userId: 'is you' });
    // Only someone he knows on FMK: a match or a conversation partner (what the web app offers).
    if (!(await knowsOnFmk(this.deps.db, userId, linked)))
      throw badRequest(LINKED_USER_NOT_FOUND, { userId: 'not a match or conversation partner' });
    // His activity privacy keeps him out of other men's contact books.
    requireAccess(actor, 'contact.link', await loadSubject(this.deps.db, actor, linked, this.deps.clock.now()));
  }
}
