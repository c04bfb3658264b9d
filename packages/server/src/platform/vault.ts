import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '@fmk/core';
import type { Db } from '../db/index.ts';
import type { PrivateRecordsTable } from '../db/schema.ts';
import { notFound } from './errors.ts';
import * as repo from './vault/repo.ts';

/**
 * Envelope encryption of private records (health and activity; docs/decisions/0008), AES-256-GCM throughout.
 *
 *   HEALTH_KEY (config) ──HKDF──▶ key-encryption key (KEK, version 1)
 *   per user: a random 256-bit data key, stored only wrapped under the KEK (health_keys),
 *             with the user id as associated data so a wrapped key cannot be moved to another user
 *   per record: payload = 0x01 | iv (12) | tag (16) | ciphertext, with associated data
 *             "kind:userId:recordId" so a payload cannot be swapped between rows or users
 *
 * A database dump alone reveals no record; deleting the user's wrapped key (deleteAll) makes any
 * copy of the payloads left in backups unreadable (crypto-shredding). Keys are not cached: one
 * small indexed read per request keeps several instances consistent after a delete.
 */
export type RecordKind = PrivateRecordsTable['kind'];

export const KEK_VERSION = 1;
const PAYLOAD_FORMAT = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface StoredRecord<T> {
  id: string;
  created: Date;
  data: T;
}

export class VaultError extends Error {
  override name = 'VaultError';
}

function seal(key: Buffer, plaintext: Buffer, aad: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.from([PAYLOAD_FORMAT]), iv, cipher.getAuthTag(), ct]);
}

function open(key: Buffer, sealed: Uint8Array, aad: string): Buffer {
  const b = Buffer.from(sealed);
  if (b.length < 1 + IV_BYTES + TAG_BYTES || b[0] !== PAYLOAD_FORMAT) throw new VaultError('unknown payload format');
  const iv = b.subarray(1, 1 + IV_BYTES);
  const tag = b.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(b.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
}

const keyAad = (userId: string, version: number) => `fmk:health-key:v${version}:${userId}`;
const recordAad = (kind: RecordKind, userId: string, id: string) => `fmk:record:${kind}:${userId}:${id}`;
const fileAad = (userId: string, key: string) => `fmk:file:${userId}:${key}`;

export class Vault {
  private readonly keks: Map<number, Buffer>;

  constructor(
    healthKey: string,
    private readonly clock: Clock,
  ) {
    const kek = Buffer.from(hkdfSync('sha256', Buffer.from(healthKey, 'utf8'), 'fmk-health-kek', `v${KEK_VERSION}`, 32));
    this.keks = new Map([[KEK_VERSION, kek]]);
  }

  /** The user's data key; created (and stored wrapped) on first write. Null when none exists and `create` is false. */
  private async dataKey(db: Db, userId: string, create: boolean): Promise<Buffer | null> {
    let row = await repo.findWrappedKey(db, userId);
    if (!row && create) {
      const kek = this.keks.get(KEK_VERSION)!;
      const wrapped = seal(kek, randomBytes(32), keyAad(userId, KEK_VERSION));
      // Two first writes at once: one key wins, both use it.
      await repo.insertWrappedKey(db, userId, KEK_VERSION, wrapped);
      row = await repo.findWrappedKey(db, userId);
      if (!row) throw new VaultError('the data key just stored is not there');
    }
    if (!row) return null;
    const kek = this.keks.get(row.key_version);
    if (!kek) throw new VaultError(`no key-encryption key of version ${row.key_version}`);
    return open(kek, row.wrapped_key, keyAad(userId, row.key_version));
  }

  /** Every record of a kind, decrypted (callers order by the dates inside). */
  async list<T>(db: Db, userId: string, kind: RecordKind): Promise<StoredRecord<T>[]> {
    const rows = await repo.listSealed(db, userId, kind);
    if (rows.length === 0) return [];
    const key = await this.dataKey(db, userId, false);
    if (!key) return [];
    return rows.map((r) => ({ id: r.id, created: r.created_at, data: this.decode<T>(key, kind, userId, r.id, r.payload) }));
  }

  /** One record of the user, or null (another user's id is simply not found). */
  async get<T>(db: Db, userId: string, kind: RecordKind, id: string): Promise<StoredRecord<T> | null> {
    const row = await repo.findSealed(db, userId, kind, id);
    if (!row) return null;
    const key = await this.dataKey(db, userId, false);
    if (!key) return null;
    return { id: row.id, created: row.created_at, data: this.decode<T>(key, kind, userId, row.id, row.payload) };
  }

  async insert<T>(db: Db, userId: string, kind: RecordKind, data: T): Promise<StoredRecord<T>> {
    const key = (await this.dataKey(db, userId, true))!;
    const id = randomUUID();
    const created = this.clock.now();
    await repo.insertSealed(db, { id, userId, kind, created, payload: this.encode(key, kind, userId, id, data) });
    return { id, created, data };
  }

  /** Replaces a record's data; false when the user has no such record. */
  async update<T>(db: Db, userId: string, kind: RecordKind, id: string, data: T): Promise<boolean> {
    const key = await this.dataKey(db, userId, false);
    if (!key) return false;
    return repo.updateSealed(db, userId, kind, id, this.encode(key, kind, userId, id, data));
  }

  async delete(db: Db, userId: string, kind: RecordKind, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return repo.deleteSealed(db, userId, kind, ids);
  }

  /**
   * Bytes kept outside the database (a contact's photo in file storage), sealed under the user's
   * data key with the storage key as associated data: the stored file is unreadable on its own and
   * after deleteAll, like the records.
   */
  async sealFile(db: Db, userId: string, storageKey: string, data: Buffer): Promise<Buffer> {
    const key = (await this.dataKey(db, userId, true))!;
    return seal(key, data, fileAad(userId, storageKey));
  }

  /** The bytes sealFile sealed, or null when the user has no key any more. */
  async openFile(db: Db, userId: string, storageKey: string, sealed: Uint8Array): Promise<Buffer | null> {
    const key = await this.dataKey(db, userId, false);
    return key ? open(key, sealed, fileAad(userId, storageKey)) : null;
  }

  /** Every record, schedule and reminder of the user, and the data key itself (crypto-shredding). */
  async deleteAll(db: Db, userId: string): Promise<void> {
    await repo.deleteEverything(db, userId);
  }

  private encode(key: Buffer, kind: RecordKind, userId: string, id: string, data: unknown): Buffer {
    return seal(key, Buffer.from(JSON.stringify(data), 'utf8'), recordAad(kind, userId, id));
  }

  private decode<T>(key: Buffer, kind: RecordKind, userId: string, id: string, payload: Uint8Array): T {
    return JSON.parse(open(key, payload, recordAad(kind, userId, id)).toString('utf8')) as T;
  }
}

/**
 * One kind of private record as a service reaches one record by id: the owner's own, or 404 with
 * the kind's words (another user's id is simply not found, like a missing one).
 */
export class OwnRecords<T> {
  constructor(
    private readonly vault: Vault,
    readonly kind: RecordKind,
    private readonly missing: string,
  ) {}

  async get(db: Db, userId: string, id: string): Promise<StoredRecord<T>> {
    const rec = await this.vault.get<T>(db, userId, this.kind, id);
    if (!rec) throw notFound(this.missing);
    return rec;
  }

  async update(db: Db, userId: string, id: string, data: T): Promise<void> {
    if (!(await this.vault.update(db, userId, this.kind, id, data))) throw notFound(this.missing);
  }

  async delete(db: Db, userId: string, id: string): Promise<void> {
    if ((await this.vault.delete(db, userId, this.kind, [id])) === 0) throw notFound(this.missing);
  }
}

/** The user's time zone for reminders and "today" (UTC until the browser reports one). */
export const timeZoneOf = repo.timeZoneOf;
