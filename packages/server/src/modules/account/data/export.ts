import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { type Clock, DATA_EXPORT_LIMIT, DATA_EXPORT_TTL_MS, type DataExport, DataRightsMessages, HOUR } from '@fmk/core';
import { strToU8, type Zippable, zip } from 'fflate';
import type { Db } from '../../../db/index.ts';
import { listBlockedBy } from '../../../platform/blocks/repo.ts';
import type { Config } from '../../../platform/config.ts';
import { AppError, conflict, notFound, tooManyRequests } from '../../../platform/errors.ts';
import type { Mailer } from '../../../platform/mail/mailer.ts';
import { readAll, type Storage } from '../../../platform/storage.ts';
import type { HealthService } from '../../health/service.ts';
import { settingsOf } from '../../settings/service.ts';
import { dataReadyMail } from '../mails.ts';
import * as repo from './repo.ts';

export interface DataExportDeps {
  db: Db;
  clock: Clock;
  storage: Storage;
  mail: Mailer;
  config: Pick<Config, 'publicUrl'>;
  /** Health and activity records, decrypted through the vault by their own feature. */
  health: Pick<HealthService, 'exportAll'>;
  log?: { error(obj: unknown, msg: string): void };
}

/** A server stopped mid-build leaves its archive 'building' for ever; after this long it counts as failed. */
const STALE_BUILD_MS = HOUR;

const README = `This archive holds everything FMK keeps about you, as JSON files:

profile.json             your account and profile (email, names, profile texts, tier, switches)
settings.json            your settings, your location cell and your mode changes
photos.json, photos/     your profile photos (the files themselves beside their details)
prompts.json             prompt answers you liked, and likes your answers received
selections.json          your fuck / marry / kill choices and the profiles you opened
matches.json             your matches
conversations.json       your conversations and every message in them; messages/photos/ holds the photos you sent
calls.json               the video and voice calls you made and received (with whom, when, how they ended)
health.json              your medications, their logs and your screenings (decrypted for you)
activity.json            your contacts and activity logs (decrypted for you)
cruise.json              your cruising sessions, spots you proposed, check-ins and events
blocks.json              the men you blocked
reports.json             reports you made about other men, their evidence and state; reports/screenshots/ holds your screenshots
alerts.json              the safety alerts the app raised for you
support.json             your bug reports, feedback and conversations with support; support/screenshots/ holds your screenshots
payments.json            your payments, refunds of them, subscriptions (comp: true for one staff gave you, free of charge), saved cards (brand and last 4 digits only) and boosts
sessions.json            the devices you signed in on
audit.json               staff actions about your account
push-subscriptions.json  the browsers that receive your notifications (without their keys)

Times are UTC (ISO 8601). Other men appear only by their id and the name the app showed you.
`;

const json = (value: unknown): Uint8Array => strToU8(`${JSON.stringify(value, null, 2)}\n`);

/**
 * The zip, compressed on fflate's worker threads: a man with hundreds of message photos must not
 * hold up every other request while his archive is packed.
 */
function zipped(files: Zippable): Promise<Uint8Array> {
  return new Promise((resolve, reject) => zip(files, { level: 6 }, (err, data) => (err ? reject(err) : resolve(data))));
}

function present(row: repo.ExportRow): DataExport {
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    createdAt: row.created_at.toISOString(),
    readyAt: row.ready_at?.toISOString() ?? null,
    expiresAt: row.expires_at?.toISOString() ?? null,
    bytes: row.bytes,
  };
}

/**
 * 'Download my data' (GDPR art. 20): one zip of every category the server holds about the user,
 * built in the background (the row's progress is what the web shows), downloadable by its owner
 * for a day, then deleted. One archive builds at a time per user, three a day.
 */
export class DataExportService {
  /** Builds under way in this process: tests and shutdown wait for them. */
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly deps: DataExportDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  async start(userId: string): Promise<DataExport> {
    const { db } = this.deps;
    const now = this.now();
    await this.expire(userId);
    await repo.failStaleBuilding(db, new Date(now.getTime() - STALE_BUILD_MS));
    if ((await repo.latestExport(db, userId))?.status === 'building') throw conflict(DataRightsMessages.exportRunning);
    const since = new Date(now.getTime() - DATA_EXPORT_LIMIT.windowMs);
    if ((await repo.countExportsSince(db, userId, since)) >= DATA_EXPORT_LIMIT.max) {
      throw tooManyRequests(DataRightsMessages.exportLimit);
    }
    const id = randomUUID();
    try {
      await repo.insertExport(db, { id, userId, now });
    } catch {
      // Two taps at once: the partial unique index lets one build.
      throw conflict(DataRightsMessages.exportRunning);
    }
    const job = this.build(id, userId).finally(() => this.running.delete(job));
    this.running.add(job);
    return present((await repo.findExport(db, userId, id))!);
  }

  /** The newest archive, or null. */
  async latest(userId: string): Promise<DataExport | null> {
    await this.expire(userId);
    await repo.failStaleBuilding(this.deps.db, new Date(this.now().getTime() - STALE_BUILD_MS));
    const row = await repo.latestExport(this.deps.db, userId);
    return row ? present(row) : null;
  }

  /** The archive's bytes, for its owner only (another user's id is not found), while it lasts. */
  async download(userId: string, id: string): Promise<{ stream: Readable; size: number; name: string }> {
    await this.expire(userId);
    const row = await repo.findExport(this.deps.db, userId, id);
    if (!row) throw notFound(DataRightsMessages.exportNotFound);
    if (row.status === 'expired') throw new AppError(410, 'expired', DataRightsMessages.exportExpired);
    if (row.status !== 'ready' || !row.storage_key) throw conflict(DataRightsMessages.exportNotReady);
    const file = await this.deps.storage.get(row.storage_key);
    if (!file) throw new AppError(410, 'expired', DataRightsMessages.exportExpired);
    return { ...file, name: `fmk-data-${row.created_at.toISOString().slice(0, 10)}.zip` };
  }

  /** Deletes archives past their day (all users', or one's), keeping their rows for the daily count. */
  async expire(userId?: string): Promise<void> {
    const files = await repo.expireExports(this.deps.db, this.now(), userId);
    await Promise.all(files.map((key) => this.deps.storage.delete(key).catch(() => undefined)));
  }

  /** Resolves when every build started so far has finished. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private async build(id: string, userId: string): Promise<void> {
    const { db, storage } = this.deps;
    // Let the request that started it answer first.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      const files = await this.collect(userId, (progress) => repo.setProgress(db, id, progress));
      const archive = await zipped(files);
      const key = `exports/${userId}/${id}.zip`;
      await storage.put(key, Buffer.from(archive), 'application/zip');
      const now = this.now();
      const ready = await repo.markReady(db, {
        id,
        storageKey: key,
        bytes: archive.length,
        now,
        expiresAt: new Date(now.getTime() + DATA_EXPORT_TTL_MS),
      });
      // The account was deleted while this was built: nothing of it may stay.
      if (!ready) {
        await storage.delete(key).catch(() => undefined);
        return;
      }
      const user = await repo.userRow(db, userId);
      if (user) this.deps.mail.send(dataReadyMail(user.email, `${this.deps.config.publicUrl}/settings`));
    } catch (err) {
      this.deps.log?.error({ err, exportId: id }, 'data export failed');
      await repo.markFailed(db, id).catch(() => undefined);
    }
  }

  /** Every category's file, the photos' bytes beside them; `progress` is told as it goes. */
  private async collect(userId: string, progress: (p: number) => Promise<void>): Promise<Zippable> {
    const { db, storage } = this.deps;
    const user = await repo.userRow(db, userId);
    if (!user) throw new Error('the user is gone');
    const identities = await repo.identityRows(db, userId);
    const anonymousIds = [
      ...new Set([
        ...(user.anonymous_id ? [user.anonymous_id] : []),
        ...identities.flatMap((i) => [i.id, ...i.previous_anonymous_ids]),
      ]),
    ];
    const emails = [...new Set([user.email, ...identities.flatMap((i) => [i.email, ...i.previous_emails])])];
    const { password_hash, fcm_token, ...profile } = user;
    const files: Zippable = {
      'README.txt': strToU8(README),
      'profile.json': json({ ...profile, hasPassword: password_hash !== null, identities }),
      // The stored row, and the same switches as GET /me/settings names them (privacy, notifications, safety).
      'settings.json': json({ ...(await repo.settingsRows(db, userId)), choices: await settingsOf(db, userId) }),
    };
    await progress(10);

    const photos = await repo.photoRows(db, userId);
    files['photos.json'] = json(photos.map(({ storage_key, ...p }) => ({ ...p, file: `photos/${p.id}.webp` })));
    for (const p of photos) {
      const file = await storage.get(p.storage_key);
      // WebP is compressed already: stored as it is.
      if (file) files[`photos/${p.id}.webp`] = [await readAll(file.stream), { level: 0 }];
    }
    await progress(40);

    files['prompts.json'] = json(await repo.promptRows(db, userId));
    files['selections.json'] = json(await repo.selectionRows(db, userId));
    files['matches.json'] = json(await repo.matchRows(db, userId));
    files['calls.json'] = json(await repo.callRows(db, userId));
    const messagePhotos = await repo.messagePhotoRows(db, userId);
    files['conversations.json'] = json({
      conversations: await repo.conversationRows(db, userId),
      photosSent: messagePhotos.map(({ storage_key, ...p }) => ({ ...p, file: `messages/photos/${p.id}.webp` })),
    });
    for (const p of messagePhotos) {
      const file = await storage.get(p.storage_key);
      if (file) files[`messages/photos/${p.id}.webp`] = [await readAll(file.stream), { level: 0 }];
    }
    await progress(70);

    const { contacts, activityLogs, ...health } = await this.deps.health.exportAll(userId);
    files['health.json'] = json(health);
    files['activity.json'] = json({ contacts, activityLogs });
    files['cruise.json'] = json(await repo.cruiseRows(db, userId));
    files['blocks.json'] = json(
      (await listBlockedBy(db, userId)).map((b) => ({ userId: b.id, name: b.display_name, blockedAt: b.created_at })),
    );
    const { reports, screenshots: shots } = await repo.reportRows(db, userId);
    files['reports.json'] = json({
      reports,
      screenshots: shots.map(({ storage_key, ...s }) => ({ ...s, file: `reports/screenshots/${s.id}.webp` })),
    });
    for (const s of shots) {
      const file = await storage.get(s.storage_key);
      if (file) files[`reports/screenshots/${s.id}.webp`] = [await readAll(file.stream), { level: 0 }];
    }
    files['alerts.json'] = json(await repo.alertRows(db, userId));
    const { screenshots, ...support } = await repo.supportRows(db, userId);
    files['support.json'] = json({
      ...support,
      screenshots: screenshots.map(({ storage_key, ...s }) => ({ ...s, file: `support/screenshots/${s.id}.webp` })),
    });
    for (const s of screenshots) {
      const file = await storage.get(s.storage_key);
      if (file) files[`support/screenshots/${s.id}.webp`] = [await readAll(file.stream), { level: 0 }];
    }
    files['payments.json'] = json(await repo.paymentRows(db, userId));
    files['sessions.json'] = json(await repo.sessionRows(db, userId));
    files['audit.json'] = json(await repo.auditRows(db, anonymousIds, emails));
    files['push-subscriptions.json'] = json(await repo.pushRows(db, userId));
    await progress(90);
    return files;
  }
}
