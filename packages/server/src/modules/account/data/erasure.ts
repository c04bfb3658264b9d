import { type Clock, DataRightsMessages, DELETE_CONFIRM_WORD } from '@fmk/core';
import type { Db } from '../../../db/index.ts';
import type { AuthContext } from '../../../platform/auth.ts';
import { type Bus, type LiveEvent, SESSION_ENDED } from '../../../platform/bus.ts';
import type { Config } from '../../../platform/config.ts';
import { badRequest, unauthorized } from '../../../platform/errors.ts';
import type { Mailer } from '../../../platform/mail/mailer.ts';
import { revokeUserSessions } from '../../../platform/sessions/repo.ts';
import type { Storage } from '../../../platform/storage.ts';
import type { Vault } from '../../../platform/vault.ts';
import { unlinkContactsTo } from '../../activity/service.ts';
import { forgetSelectionsAt } from '../../game/service.ts';
import type { HealthService } from '../../health/service.ts';
import type { IdentityService } from '../../identity/service.ts';
import { messagePhotoFiles } from '../../messaging/service.ts';
import { profilePhotoFiles } from '../../profiles/service.ts';
import { forgetAlertsAbout, reportFileKeys } from '../../safety/service.ts';
import { supportFileKeys } from '../../support/service.ts';
import { accountDeletedMail } from '../mails.ts';
import { phoneCountKey } from '../phone.ts';
import type { AccountService } from '../service.ts';
import * as repo from './repo.ts';

export interface ErasureDeps {
  db: Db;
  /** The secret his phone numbers' counts of texts are keyed under. */
  config: Pick<Config, 'tokenSecret'>;
  clock: Clock;
  storage: Storage;
  bus: Bus;
  mail: Mailer;
  identity: IdentityService;
  /** The current-password check with its limit (5 wrong in 15 minutes). */
  account: Pick<AccountService, 'checkPassword'>;
  /** Health and activity: the vault's key and records, and the contacts' sealed photo files. */
  health: Pick<HealthService, 'deleteAll'>;
  /** Other men's sealed contact books, where a contact may link to him. */
  vault: Vault;
}

/**
 * 'Delete my account' (GDPR art. 17). The user's row goes, and with it, by the foreign keys'
 * cascade (the design since the first migration), every row that is his: profile, settings,
 * photos, selections and matches both ways, conversations with him (so they disappear for the
 * other side too) and every message in them, likes, blocks, cruise, push, sessions, links,
 * phone codes, archives, support reports and threads. What has no such key is erased by its
 * feature: health's vault, the selection requests aimed at him (game), other men's contacts
 * linked to him unlinked (activity), other men's alerts stripped of actions aimed at him (safety), the kept ban and audit records pseudonymised (identity). His files are listed by their features (profiles,
 * messaging, support; the archives here) and go after the commit, so a failed erasure leaves
 * the account whole.
 */
export class ErasureService {
  constructor(private readonly deps: ErasureDeps) {}

  /**
   * Needs the password; an account without one (Google sign-in only) confirms by typing DELETE,
   * since asking Google again would prove only what its session already proves.
   */
  async deleteAccount(auth: AuthContext, body: { password?: string | undefined; confirm?: string | undefined }): Promise<void> {
    const { db, identity } = this.deps;
    const user = await identity.userById(db, auth.userId);
    if (!user) throw unauthorized();
    if (user.password_hash) {
      if (!body.password)
        throw badRequest(DataRightsMessages.passwordRequired, { password: DataRightsMessages.passwordRequired });
      await this.deps.account.checkPassword(db, user.id, user.password_hash, body.password);
    } else if (body.confirm?.trim() !== DELETE_CONFIRM_WORD) {
      throw badRequest(DataRightsMessages.confirmRequired, { confirm: DataRightsMessages.confirmRequired });
    }

    const snapshot = await this.snapshot(user.id);
    // The vault first: once its key is gone the sealed records are unreadable, whatever follows.
    await this.deps.health.deleteAll(user.id);
    const now = this.deps.clock.now();
    const sessions = await db.transaction().execute(async (trx) => {
      const revoked = await revokeUserSessions(trx, user.id, now, { keep: null });
      await identity.forgetIdentity(trx, { userId: user.id, anonymousIds: snapshot.anonymousIds, emails: snapshot.emails });
      await forgetSelectionsAt(trx, user.id);
      await forgetAlertsAbout(trx, user.id);
      await unlinkContactsTo(trx, this.deps.vault, snapshot.partners, user.id);
      await repo.deleteRequestCounts(
        trx,
        user.id,
        snapshot.emails,
        snapshot.phones.map((p) => phoneCountKey(this.deps.config.tokenSecret, p)),
      );
      await repo.deleteUserRow(trx, user.id);
      return revoked;
    });

    // After the commit: his sockets close, the men he talked to lose the conversation at once.
    const events: (readonly [readonly string[], LiveEvent])[] = sessions.map(
      (sessionId) => [[user.id], { type: SESSION_ENDED, sessionId }] as const,
    );
    for (const c of snapshot.conversations) {
      events.push([[c.partner], { type: 'conversation', conversationId: c.id, removed: true }] as const);
    }
    for (const partner of new Set(snapshot.conversations.map((c) => c.partner))) {
      events.push([[partner], { type: 'refetch', of: 'matches' }] as const);
    }
    await this.deps.bus.publishBatch(events);
    await Promise.all(snapshot.files.map((key) => this.deps.storage.delete(key).catch(() => undefined)));
    this.deps.mail.send(accountDeletedMail(user.email));
  }

  /** What the erasure needs to know before the rows go: his ids and addresses, files, partners. */
  private async snapshot(userId: string) {
    const { db } = this.deps;
    const user = await repo.userRow(db, userId);
    const identities = await repo.identityRows(db, userId);
    const conversations = await repo.conversationRows(db, userId);
    const matches = await repo.matchRows(db, userId);
    return {
      anonymousIds: [
        ...new Set([
          ...(user?.anonymous_id ? [user.anonymous_id] : []),
          ...identities.flatMap((i) => [i.id, ...i.previous_anonymous_ids]),
        ]),
      ],
      emails: [
        ...new Set([
          ...(user ? [user.email] : []),
          ...(user?.pending_email ? [user.pending_email] : []),
          ...identities.flatMap((i) => [i.email, ...i.previous_emails]),
        ]),
      ],
      phones: await repo.phonesOf(db, userId),
      files: [
        ...(await profilePhotoFiles(db, userId)),
        ...(await messagePhotoFiles(db, userId)),
        ...(await repo.exportFilesOf(db, userId)),
        ...(await supportFileKeys(db, userId)),
        ...(await reportFileKeys(db, userId)),
      ],
      conversations: conversations.map((c) => ({ id: c.id, partner: c.partnerId })),
      partners: [...conversations.map((c) => c.partnerId), ...matches.map((m) => m.partnerId)],
    };
  }
}
