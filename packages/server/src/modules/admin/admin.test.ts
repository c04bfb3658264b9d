import { randomUUID } from 'node:crypto';
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { makeStaff, newEmail, PASSWORD, signUp, signUpMember, signUpStaff } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { fullMember, PHONE } from '../../../test/member.ts';
import { verifyAudit } from '../../platform/audit/repo.ts';

type Headers = Record<string, string>;

describe.each(DB_KINDS)('the staff admin area on %s', (kind) => {
  const t = useTestApp(kind);
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Headers = {}, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const codeAt = (secret: string, at: Date) => generate({ secret, epoch: Math.floor(at.getTime() / 1000) });
  const later = (s: number) => t().clock.advance(s * 1000);

  describe('sign-in', () => {
    it('says the spec’s words: credentials needed, not in the collection, inactive; and makes no session', async () => {
      const none = await call('POST', '/admin/login', {}, { email: newEmail() });
      expect(none.statusCode).toBe(400);
      expect(none.json().message).toBe('Either password or googleUid must be provided');
      const member = await signUp(t().app);
      const notStaff = await call('POST', '/admin/login', {}, { email: member.user.email, password: PASSWORD });
      expect(notStaff.statusCode).toBe(403);
      expect(notStaff.json().message).toBe('Admin user not found in collection');
      await makeStaff(t().db, member.user.uid, 'admin', false);
      const inactive = await call('POST', '/admin/login', {}, { email: member.user.email, password: PASSWORD });
      expect(inactive.statusCode).toBe(403);
      expect(inactive.json().message).toBe('Admin account is inactive');
      const wrong = await call('POST', '/admin/login', {}, { email: member.user.email, password: 'nope nope' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().message).toBe('Login failed. Please try again.');
      const google = await call('POST', '/admin/login', {}, { email: member.user.email, googleUid: 'not-his' });
      expect(google.statusCode).toBe(401);
      const staffSessions = await t()
        .db.selectFrom('sessions')
        .select('id')
        .where('user_id', '=', member.user.uid)
        .where('kind', '=', 'staff')
        .execute();
      expect(staffSessions).toEqual([]);
      // A member asking for the staff record is told he is not an admin.
      const me = await call('GET', '/admin/me', member.headers);
      expect(me.json().message).toBe('Admin account is inactive');
    });

    it('needs a TOTP code, good once, or a recovery code, good once; the session is staff and short', async () => {
      const u = await signUp(t().app);
      await makeStaff(t().db, u.user.uid, 'moderator');
      const first = (await call('POST', '/admin/login', {}, { email: u.user.email, password: PASSWORD })).json();
      expect(first.enroll.uri).toMatch(/^otpauth:\/\/totp\//);
      const secret = first.enroll.secret as string;
      const bad = await call('POST', '/admin/login/verify', {}, { challenge: first.challenge, code: '000000' });
      expect(bad.statusCode).toBe(400);
      const code = await codeAt(secret, t().clock.now());
      const ok = await call('POST', '/admin/login/verify', {}, { challenge: first.challenge, code });
      expect(ok.statusCode, ok.body).toBe(200);
      const session = ok.json();
      expect(session.recoveryCodes).toHaveLength(10);
      expect(new Date(session.expiresAt).getTime() - t().clock.now().getTime()).toBe(8 * 3600_000);
      // The same code again is refused, even within its 30 s.
      const again = (await call('POST', '/admin/login', {}, { email: u.user.email, password: PASSWORD })).json();
      expect(again.enroll).toBeNull();
      expect((await call('POST', '/admin/login/verify', {}, { challenge: again.challenge, code })).statusCode).toBe(400);
      // A recovery code works once.
      const rc = session.recoveryCodes[0] as string;
      expect((await call('POST', '/admin/login/verify', {}, { challenge: again.challenge, recoveryCode: rc })).statusCode).toBe(
        200,
      );
      expect((await call('POST', '/admin/login/verify', {}, { challenge: again.challenge, recoveryCode: rc })).statusCode).toBe(
        400,
      );
      // The next step's code works; a challenge older than 5 minutes does not.
      later(31);
      const next = await codeAt(secret, t().clock.now());
      expect((await call('POST', '/admin/login/verify', {}, { challenge: again.challenge, code: next })).statusCode).toBe(200);
      later(301);
      const late = await call(
        'POST',
        '/admin/login/verify',
        {},
        { challenge: again.challenge, code: await codeAt(secret, t().clock.now()) },
      );
      expect(late.statusCode).toBe(400);
      // Signing out ends the staff session.
      const headers = { authorization: `Bearer ${session.token}` };
      expect((await call('GET', '/admin/me', headers)).statusCode).toBe(200);
      expect((await call('POST', '/admin/logout', headers)).statusCode).toBe(204);
      expect((await call('GET', '/admin/me', headers)).statusCode).toBe(401);
    });
  });

  describe('the team', () => {
    it('invites by email with an expiring link; the invitee joins with his password and a second factor', async () => {
      const owner = await signUpStaff(t().app, t().db, 'owner', t().clock.now());
      const invitee = await signUp(t().app);
      const made = await call('POST', '/admin/team/invites', owner.staffHeaders, {
        email: invitee.user.email,
        role: 'moderator',
      });
      expect(made.statusCode, made.body).toBe(201);
      const token = (made.json().link as string).split('/').at(-1)!;
      expect((await call('GET', `/admin/invites/${token}`)).json()).toMatchObject({
        email: invitee.user.email,
        role: 'moderator',
      });
      const wrong = await call('POST', '/admin/invites/accept', {}, { token, password: 'wrong wrong' });
      expect(wrong.statusCode).toBe(401);
      const accepted = await call('POST', '/admin/invites/accept', {}, { token, password: PASSWORD });
      expect(accepted.statusCode, accepted.body).toBe(200);
      const { challenge, enroll } = accepted.json();
      const v = await call('POST', '/admin/login/verify', {}, { challenge, code: await codeAt(enroll.secret, t().clock.now()) });
      expect(v.json().me).toMatchObject({ role: 'moderator', email: invitee.user.email });
      // Used once.
      expect((await call('POST', '/admin/invites/accept', {}, { token, password: PASSWORD })).statusCode).toBe(404);
      const members = (await call('GET', '/admin/team/members', owner.staffHeaders)).json().rows;
      expect(members.find((m: { userId: string }) => m.userId === invitee.user.uid)).toMatchObject({
        role: 'moderator',
        invitedBy: owner.user.uid,
      });
    });

    it('expires and revokes invites', async () => {
      const owner = await signUpStaff(t().app, t().db, 'owner', t().clock.now());
      const a = (await call('POST', '/admin/team/invites', owner.staffHeaders, { email: newEmail(), role: 'admin' })).json();
      const b = (await call('POST', '/admin/team/invites', owner.staffHeaders, { email: newEmail(), role: 'admin' })).json();
      expect((await call('DELETE', `/admin/team/invites/${b.id}`, owner.staffHeaders)).statusCode).toBe(204);
      expect((await call('GET', `/admin/invites/${b.link.split('/').at(-1)}`)).statusCode).toBe(404);
      later(73 * 3600);
      expect((await call('GET', `/admin/invites/${a.link.split('/').at(-1)}`)).statusCode).toBe(404);
    });

    it('keeps the rank rule: no inviting or managing one’s equal or better', async () => {
      const sa = await signUpStaff(t().app, t().db, 'super_admin', t().clock.now());
      const peer = await signUpStaff(t().app, t().db, 'super_admin', t().clock.now());
      const mod = await signUpStaff(t().app, t().db, 'moderator', t().clock.now());
      expect(
        (await call('POST', '/admin/team/invites', sa.staffHeaders, { email: newEmail(), role: 'super_admin' })).json().message,
      ).toBe('Only a higher rank can manage this user.');
      expect((await call('PATCH', `/admin/team/members/${peer.user.uid}`, sa.staffHeaders, { role: 'admin' })).statusCode).toBe(
        403,
      );
      expect((await call('PATCH', `/admin/team/members/${mod.user.uid}`, sa.staffHeaders, { role: 'owner' })).statusCode).toBe(
        403,
      );
      expect((await call('PATCH', `/admin/team/members/${mod.user.uid}`, sa.staffHeaders, { role: 'admin' })).statusCode).toBe(
        204,
      );
      // A moderator cannot ban staff above him, nor a super admin his peer.
      const banPeer = await call('POST', `/admin/users/${peer.user.uid}/ban`, sa.staffHeaders, { reason: 'testing the rule' });
      expect(banPeer.statusCode).toBe(403);
    });

    it('caps a super admin’s team at 10', async () => {
      const sa = await signUpStaff(t().app, t().db, 'super_admin', t().clock.now());
      for (let i = 0; i < 10; i++)
        expect(
          (await call('POST', '/admin/team/invites', sa.staffHeaders, { email: newEmail(), role: 'moderator' })).statusCode,
        ).toBe(201);
      const eleventh = await call('POST', '/admin/team/invites', sa.staffHeaders, { email: newEmail(), role: 'moderator' });
      expect(eleventh.statusCode).toBe(403);
      expect(eleventh.json().message).toBe('Team size limit reached: at most 10 members.');
    });

    it('lets an explicit permissions list override the role, and refuses an unknown permission', async () => {
      const owner = await signUpStaff(t().app, t().db, 'owner', t().clock.now());
      const mod = await signUpStaff(t().app, t().db, 'moderator', t().clock.now());
      expect((await call('GET', '/admin/audit', mod.staffHeaders)).statusCode).toBe(403);
      expect(
        (await call('PATCH', `/admin/team/members/${mod.user.uid}`, owner.staffHeaders, { permissions: ['audit_logs.fly'] }))
          .statusCode,
      ).toBe(400);
      expect(
        (await call('PATCH', `/admin/team/members/${mod.user.uid}`, owner.staffHeaders, { permissions: ['audit_logs.view'] }))
          .statusCode,
      ).toBe(204);
      expect((await call('GET', '/admin/audit', mod.staffHeaders)).statusCode).toBe(200);
      expect((await call('GET', '/admin/users', mod.staffHeaders)).statusCode).toBe(403);
      // Revoking ends his staff sessions at once.
      expect((await call('DELETE', `/admin/team/members/${mod.user.uid}`, owner.staffHeaders)).statusCode).toBe(204);
      expect((await call('GET', '/admin/audit', mod.staffHeaders)).statusCode).toBe(401);
    });
  });

  describe('users', () => {
    it('bans a user: signed out at once, and his email cannot sign up again; lifting the ban lets him back', async () => {
      const mod = await signUpStaff(t().app, t().db, 'moderator', t().clock.now());
      const bad = await signUpMember(t().app, t().db);
      expect((await call('GET', '/me', bad.headers)).statusCode).toBe(200);
      const noReason = await call('POST', `/admin/users/${bad.user.uid}/ban`, mod.staffHeaders, {});
      expect(noReason.statusCode).toBe(400);
      const res = await call('POST', `/admin/users/${bad.user.uid}/ban`, mod.staffHeaders, { reason: 'Harassment in chat' });
      expect(res.statusCode, res.body).toBe(204);
      expect((await call('GET', '/me', bad.headers)).statusCode).toBe(401);
      const again = await call('POST', '/auth/signup', {}, { email: bad.user.email, password: PASSWORD });
      expect(again.statusCode).toBe(403);
      expect(again.json().message).toBe('Your email is permanently banned. Reason: Harassment in chat');
      const bans = (await call('GET', '/admin/bans', mod.staffHeaders)).json().rows;
      expect(JSON.stringify(bans)).not.toContain(bad.user.email);
      // A moderator may ban; lifting needs users.ban too.
      const hash = bans[0].hash as string;
      expect((await call('DELETE', `/admin/bans/${hash}`, mod.staffHeaders)).statusCode).toBe(204);
      expect((await call('POST', '/auth/login', {}, { email: bad.user.email, password: PASSWORD })).statusCode).toBe(200);
    });

    it('searches by email, anonymous id and name without returning an email; the lookup needs a reason and is audited', async () => {
      const admin = await signUpStaff(t().app, t().db, 'admin', t().clock.now());
      const u = await signUpMember(t().app, t().db);
      await call('PATCH', '/me', u.headers, { displayName: 'Quentin' });
      const anon = (
        await t().db.selectFrom('users').select('anonymous_id').where('id', '=', u.user.uid).executeTakeFirstOrThrow()
      ).anonymous_id!;
      for (const q of [u.user.email.toUpperCase(), anon, 'quent']) {
        const page = await call('GET', `/admin/users?q=${encodeURIComponent(q)}`, admin.staffHeaders);
        expect(
          page.json().rows.map((r: { id: string }) => r.id),
          q,
        ).toContain(u.user.uid);
        expect(page.body).not.toContain(u.user.email);
      }
      expect((await call('POST', '/admin/identity/lookup', admin.staffHeaders, { anonymousId: anon })).statusCode).toBe(400);
      const before = await t().db.selectFrom('audit_log').select('id').where('action', '=', 'identity_lookup').execute();
      const found = await call('POST', '/admin/identity/lookup', admin.staffHeaders, {
        anonymousId: anon,
        reason: 'Law enforcement request #12',
      });
      expect(found.json()).toMatchObject({ email: u.user.email, userId: u.user.uid });
      const rows = await t().db.selectFrom('audit_log').selectAll().where('action', '=', 'identity_lookup').execute();
      expect(rows.length).toBe(before.length + 1);
      expect(rows.at(-1)).toMatchObject({ admin_id: admin.user.uid, reason: 'Law enforcement request #12', anonymous_id: anon });
      expect(rows.at(-1)!.ip_address).toBeTruthy();
    });

    it('changes a tier with a reason, deactivates and regenerates the anonymous id, each audited', async () => {
      const admin = await signUpStaff(t().app, t().db, 'admin', t().clock.now());
      const u = await signUpMember(t().app, t().db);
      expect(
        (
          await call('POST', `/admin/users/${u.user.uid}/tier`, admin.staffHeaders, {
            tier: 'platinum',
            reason: 'Goodwill after outage',
          })
        ).statusCode,
      ).toBe(204);
      const newId = (
        await call('POST', `/admin/users/${u.user.uid}/anonymous-id`, admin.staffHeaders, { reason: 'Asked by the member' })
      ).json().anonymousId;
      expect(newId).toMatch(/^anon_[a-z0-9]{12}$/);
      expect(
        (await call('POST', `/admin/users/${u.user.uid}/deactivate`, admin.staffHeaders, { reason: 'Spam account' })).statusCode,
      ).toBe(204);
      expect((await call('GET', '/me', u.headers)).statusCode).toBe(401);
      const detail = (await call('GET', `/admin/users/${u.user.uid}`, admin.staffHeaders)).json();
      expect(detail).toMatchObject({ tier: 'platinum', isActive: false, anonymousId: newId });
      const actions = (
        await call('GET', '/admin/audit', (await signUpStaff(t().app, t().db, 'owner', t().clock.now())).staffHeaders)
      ).json();
      expect(actions.chain.ok).toBe(true);
      expect(actions.rows.map((r: { action: string }) => r.action)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^change_tier:.*->platinum$/),
          'regenerate_anonymous_id',
          'deactivate_user',
        ]),
      );
    });
  });

  describe('the audit log', () => {
    it('is a hash chain: editing, deleting or reordering a row is caught', async () => {
      const owner = await signUpStaff(t().app, t().db, 'owner', t().clock.now());
      const u = await signUpMember(t().app, t().db);
      await call('POST', `/admin/users/${u.user.uid}/tier`, owner.staffHeaders, { tier: 'premium', reason: 'first reason' });
      await call('POST', `/admin/users/${u.user.uid}/tier`, owner.staffHeaders, { tier: 'free', reason: 'second reason' });
      expect(await verifyAudit(t().db)).toMatchObject({ ok: true });
      const row = await t()
        .db.selectFrom('audit_log')
        .select(['id', 'reason'])
        .where('reason', '=', 'first reason')
        .executeTakeFirstOrThrow();
      await t().db.updateTable('audit_log').set({ reason: 'nothing to see' }).where('id', '=', row.id).execute();
      const broken = await verifyAudit(t().db);
      expect(broken).toMatchObject({ ok: false, brokenAt: String(row.id) });
      const page = (await call('GET', '/admin/audit', owner.staffHeaders)).json();
      expect(page.chain).toMatchObject({ ok: false, brokenAt: String(row.id) });
      await t().db.updateTable('audit_log').set({ reason: 'first reason' }).where('id', '=', row.id).execute();
      expect(await verifyAudit(t().db)).toMatchObject({ ok: true });
      await t().db.deleteFrom('audit_log').where('id', '=', row.id).execute();
      expect((await verifyAudit(t().db)).ok).toBe(false);
    });

    it('pages by 100 and exports CSV', async () => {
      const owner = await signUpStaff(t().app, t().db, 'owner', t().clock.now());
      const page = (await call('GET', '/admin/audit?page=1', owner.staffHeaders)).json();
      expect(page.pageSize).toBe(100);
      const csv = await call('GET', '/admin/audit/export', owner.staffHeaders);
      expect(csv.headers['content-type']).toContain('text/csv');
      expect(csv.body.split('\n')[0]).toBe('id,time,admin,action,target_type,target_id,anonymous_id,reason,ip');
      const sa = await signUpStaff(t().app, t().db, 'super_admin', t().clock.now());
      expect((await call('GET', '/admin/audit/export', sa.staffHeaders)).statusCode).toBe(403);
    });
  });

  it('has no staff route that returns health, activity, contacts, an exact location, unreported messages or an email', async () => {
    const { me, partner } = await fullMember(t());
    const owner = await signUpStaff(t().app, t().db, 'owner', t().clock.now());
    const secrets = ['PrEP', 'Erik from the app', '52.52', '13.405', 'hi from me', 'hi back', PHONE, me.user.email];
    const paths = t().app.swagger().paths ?? {};
    const gets = Object.entries(paths)
      .filter(([p, item]) => p.startsWith('/api/v1/admin') && item && 'get' in item)
      .map(([p]) => p.slice('/api/v1'.length));
    expect(gets.length).toBeGreaterThan(10);
    for (const p of gets) {
      for (const id of [me.user.uid, partner.user.uid, randomUUID()]) {
        const url = p.replace(/\{\w+\}/g, id) + (p === '/admin/users' ? `?q=${me.user.uid}` : '');
        const res = await call('GET', url, owner.staffHeaders);
        for (const s of secrets) expect(res.body.includes(s), `${url} leaks ${s}`).toBe(false);
      }
    }
  });
});
