import { createHmac } from 'node:crypto';
import { DAY, Messages } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { newEmail, signUp } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { EmailBannedError, IdentityService } from './service.ts';

const admin = { adminId: 'admin-7', reason: 'support ticket 42', ip: '192.0.2.7' };

describe.each(DB_KINDS)('identity service on %s', (kind) => {
  const t = useTestApp(kind);
  const service = (generateId?: () => string) =>
    new IdentityService({ config: t().config, clock: t().clock, ...(generateId ? { generateId } : {}) });
  const create = (email = newEmail(), s = service()) =>
    s.createUser(t().db, { email, passwordHash: null, googleSub: null, source: 'email', host: 'fmk.example.com' });
  const count = async (table: 'users' | 'identity_mappings' | 'user_settings' | 'audit_log') =>
    Number(
      (
        await t()
          .db.selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const mapping = (id: string) =>
    t().db.selectFrom('identity_mappings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const lastAudit = () => t().db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();

  describe('createUser', () => {
    it('writes user, settings and mapping with a fresh anonymous id', async () => {
      const user = await create('Someone@Example.COM');
      expect(user.email).toBe('someone@example.com');
      expect(user.anonymous_id).toMatch(/^anon_[a-z0-9]{12}$/);
      expect(await mapping(user.anonymous_id!)).toMatchObject({
        email: 'someone@example.com',
        user_id: user.id,
        is_active: true,
      });
    });

    it('gives up after 10 colliding ids with the spec message and writes nothing', async () => {
      const taken = (await create()).anonymous_id!;
      let calls = 0;
      const before = await Promise.all([count('users'), count('identity_mappings'), count('user_settings')]);
      const email = newEmail();
      await expect(
        create(
          email,
          service(() => {
            calls += 1;
            return taken;
          }),
        ),
      ).rejects.toThrow('Unable to generate unique anonymous identifier');
      expect(calls).toBe(10);
      expect(await Promise.all([count('users'), count('identity_mappings'), count('user_settings')])).toEqual(before);
    });

    it('retries past a collision', async () => {
      const taken = (await create()).anonymous_id!;
      const ids = [taken, taken, 'anon_retry0000001'];
      const user = await create(
        newEmail(),
        service(() => ids.shift()!),
      );
      expect(user.anonymous_id).toBe('anon_retry0000001');
    });

    it('refuses a banned email with the service-level reason and the sign-up notice', async () => {
      const email = newEmail();
      await service().banEmail(t().db, { email, ...admin, reason: 'spam', permanent: true });
      const err = await create(email).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EmailBannedError);
      expect((err as EmailBannedError).reason).toBe('Email address is banned from the platform');
      expect((err as EmailBannedError).message).toBe('Your email is permanently banned. Reason: spam');
      expect((err as EmailBannedError).status).toBe(403);
    });
  });

  describe('ensureAnonymousId', () => {
    it('gives an existing non-admin user without one an id and a mapping, once', async () => {
      const user = await create();
      await t().db.deleteFrom('identity_mappings').where('user_id', '=', user.id).execute();
      await t().db.updateTable('users').set({ anonymous_id: null }).where('id', '=', user.id).execute();
      const id = await service().ensureAnonymousId(t().db, user.id);
      expect(id).toMatch(/^anon_[a-z0-9]{12}$/);
      expect(await mapping(id!)).toMatchObject({ user_id: user.id, email: user.email, is_active: true });
      expect(await service().ensureAnonymousId(t().db, user.id)).toBe(id);
    });

    it('leaves an active admin without one', async () => {
      const user = await create();
      await t().db.deleteFrom('identity_mappings').where('user_id', '=', user.id).execute();
      await t().db.updateTable('users').set({ anonymous_id: null }).where('id', '=', user.id).execute();
      await t().db.insertInto('admin_users').values({ user_id: user.id, role: 'admin', permissions: null }).execute();
      expect(await service().ensureAnonymousId(t().db, user.id)).toBeNull();
    });

    it('is applied at sign-in', async () => {
      const a = await signUp(t().app);
      await t().db.deleteFrom('identity_mappings').where('user_id', '=', a.user.uid).execute();
      await t().db.updateTable('users').set({ anonymous_id: null }).where('id', '=', a.user.uid).execute();
      const login = await t().app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: a.user.email, password: 'correct horse battery' },
      });
      expect(login.json().user.anonymousId).toMatch(/^anon_[a-z0-9]{12}$/);
    });
  });

  describe('bans', () => {
    it('keys the record by an HMAC of the lowercased email and deactivates every linked identity', async () => {
      const a = await signUp(t().app);
      const email = a.user.email;
      const session = () => t().app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: a.headers });
      expect((await session()).statusCode).toBe(200);
      await service().banEmail(t().db, { email: email.toUpperCase(), ...admin, reason: 'spam', permanent: true });
      const ban = await t().db.selectFrom('banned_emails').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
      expect(ban.email_hash).toBe(createHmac('sha256', t().config.emailHashKey).update(email).digest('hex'));
      expect(ban).toMatchObject({ banned_by: 'admin-7', reason: 'spam', is_permanent: true, expires_at: null });
      expect(ban.associated_anonymous_ids).toEqual([a.user.anonymousId]);
      expect((await mapping(a.user.anonymousId)).is_active).toBe(false);
      const sessions = await t().db.selectFrom('sessions').select('revoked_at').where('user_id', '=', a.user.uid).execute();
      expect(sessions.every((s) => s.revoked_at !== null)).toBe(true);
      // The session was cached as live a moment ago: the ban ends it at once all the same.
      expect((await session()).statusCode).toBe(401);
      expect(await lastAudit()).toMatchObject({
        admin_id: 'admin-7',
        action: 'ban_email',
        email,
        anonymous_id: a.user.anonymousId,
        ip_address: '192.0.2.7',
      });
    });

    it('reports a ban in force, deletes an expired one at the check', async () => {
      const email = newEmail();
      const s = service();
      await s.banEmail(t().db, { email, ...admin, permanent: false, expiresAt: new Date(t().clock.now().getTime() + DAY) });
      expect(await s.checkBan(t().db, email)).toMatchObject({ isPermanent: false, reason: admin.reason });
      t().clock.advance(DAY);
      expect(await s.checkBan(t().db, email)).toBeNull();
      expect(await t().db.selectFrom('banned_emails').selectAll().where('email', '=', email).execute()).toEqual([]);
    });

    it('unbans: deletes the record, reactivates the identities and audits it', async () => {
      const a = await signUp(t().app);
      const s = service();
      await s.banEmail(t().db, { email: a.user.email, ...admin, permanent: true });
      await s.unbanEmail(t().db, a.user.email, { ...admin, reason: 'appeal accepted' });
      expect(await s.checkBan(t().db, a.user.email)).toBeNull();
      expect((await mapping(a.user.anonymousId)).is_active).toBe(true);
      const user = await t().db.selectFrom('users').select('is_active').where('id', '=', a.user.uid).executeTakeFirstOrThrow();
      expect(user.is_active).toBe(true);
      expect(await lastAudit()).toMatchObject({ action: 'unban_email', reason: 'appeal accepted', email: a.user.email });
      await expect(s.unbanEmail(t().db, a.user.email, admin)).rejects.toThrow('This email is not banned.');
    });

    it('refuses a temporary ban without a future expiry, or without a reason', async () => {
      const s = service();
      await expect(
        s.banEmail(t().db, { email: newEmail(), ...admin, permanent: false, expiresAt: t().clock.now() }),
      ).rejects.toThrow('A temporary ban needs an expiry in the future.');
      await expect(s.banEmail(t().db, { email: newEmail(), ...admin, reason: '  ', permanent: true })).rejects.toThrow(
        'Give a reason for the ban.',
      );
    });
  });

  describe('regenerateAnonymousId', () => {
    it('deactivates the old mapping and keeps the old id in the new one', async () => {
      const user = await create();
      const old = user.anonymous_id!;
      const next = await service().regenerateAnonymousId(t().db, user.id, admin);
      expect(next).not.toBe(old);
      expect(next).toMatch(/^anon_[a-z0-9]{12}$/);
      expect((await mapping(old)).is_active).toBe(false);
      expect(await mapping(next)).toMatchObject({
        is_active: true,
        user_id: user.id,
        previous_anonymous_ids: [old],
        email: user.email,
      });
      const row = await t().db.selectFrom('users').select('anonymous_id').where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(row.anonymous_id).toBe(next);
      const third = await service().regenerateAnonymousId(t().db, user.id, admin);
      expect((await mapping(third)).previous_anonymous_ids).toEqual([old, next]);
      expect(await lastAudit()).toMatchObject({ action: 'regenerate_anonymous_id', anonymous_id: next, admin_id: 'admin-7' });
    });

    it('fails without an active mapping', async () => {
      const user = await create();
      await t().db.updateTable('identity_mappings').set({ is_active: false }).where('user_id', '=', user.id).execute();
      await expect(service().regenerateAnonymousId(t().db, user.id, admin)).rejects.toThrow(Messages.currentIdentityNotFound);
    });
  });

  describe('changeEmail', () => {
    it('keeps the old email in the previous list', async () => {
      const user = await create();
      const next = newEmail('changed');
      await service().changeEmail(t().db, user.id, next.toUpperCase());
      const row = await t().db.selectFrom('users').select('email').where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(row.email).toBe(next);
      expect(await mapping(user.anonymous_id!)).toMatchObject({ email: next, previous_emails: [user.email] });
    });

    it('refuses a banned new email and a taken one, changing nothing', async () => {
      const user = await create();
      const banned = newEmail('banned');
      await service().banEmail(t().db, { email: banned, ...admin, permanent: true });
      const err = await service()
        .changeEmail(t().db, user.id, banned)
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 403, message: 'New email address is banned from the platform' });
      const other = await create();
      await expect(service().changeEmail(t().db, user.id, other.email)).rejects.toThrow(Messages.emailTaken);
      const row = await t().db.selectFrom('users').select('email').where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(row.email).toBe(user.email);
    });
  });

  describe('lookupIdentity', () => {
    it('returns the identity and writes the audit log entry', async () => {
      const user = await create();
      const before = await count('audit_log');
      const found = await service().lookupIdentity(t().db, user.anonymous_id!, admin);
      expect(found).toMatchObject({
        anonymousId: user.anonymous_id,
        email: user.email,
        userId: user.id,
        isActive: true,
        registrationSource: 'email',
      });
      expect(await count('audit_log')).toBe(before + 1);
      const entry = await lastAudit();
      expect(entry).toMatchObject({
        admin_id: 'admin-7',
        action: 'identity_lookup',
        anonymous_id: user.anonymous_id,
        email: user.email,
        reason: 'support ticket 42',
        ip_address: '192.0.2.7',
      });
      expect(entry.created_at).toEqual(t().clock.now());
    });

    it('says "Identity mapping not found" for an unknown or malformed id', async () => {
      await expect(service().lookupIdentity(t().db, 'anon_000000000000', admin)).rejects.toThrow('Identity mapping not found');
      await expect(service().lookupIdentity(t().db, 'nonsense', admin)).rejects.toThrow('Identity mapping not found');
    });
  });
});
