import { randomUUID } from 'node:crypto';
import { ADMIN_ROUTES, type AdminRouteNeed } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { locatedUser } from '../../../test/cruise.ts';
import { signUpMember, signUpStaff } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { recordScore } from '../../../test/security/scoreboard.ts';
import { verifyAudit } from '../../platform/audit/repo.ts';

const PREFIX = '/api/v1';
type Headers = Record<string, string>;

/** What one staff write needs to succeed: its path's parameters, its body, and the audit action it must write. */
interface Fixture {
  params?: Record<string, string>;
  body?: object;
  action: string | RegExp;
}

/**
 * Every staff write is audited: the test walks each non-GET route under /admin that Fastify has
 * (the staff ones; the open sign-in steps are not staff writes), makes one successful call, and
 * expects exactly one new audit row, by the caller, naming the action, with his address. A new
 * staff write fails here until it has a fixture below, and then until it writes its row.
 */
describe.each(DB_KINDS)('the audit of every staff write on %s', (kind) => {
  const t = useTestApp(kind);
  const call = (method: string, url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method: method as 'POST', url: `${PREFIX}${url}`, headers, ...(payload ? { payload } : {}) });
  const ok = async (method: string, url: string, headers: Headers, payload?: object) => {
    const res = await call(method, url, headers, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.body ? res.json() : null;
  };

  /** The staff writes as Fastify registered them, sign-out last (it ends the session the rest use). */
  function staffWrites(): string[] {
    const paths = t().app.swagger().paths ?? {};
    return Object.entries(paths)
      .flatMap(([path, item]) =>
        path.startsWith(`${PREFIX}/admin`)
          ? Object.keys(item ?? {})
              .filter((m) => ['post', 'put', 'patch', 'delete'].includes(m))
              .map((m) => `${m.toUpperCase()} ${path.slice(PREFIX.length).replace(/\{(\w+)\}/g, ':$1')}`)
          : [],
      )
      .filter((key) => (ADMIN_ROUTES as Record<string, AdminRouteNeed>)[key] !== 'open')
      .sort((a, b) => Number(a === 'POST /admin/logout') - Number(b === 'POST /admin/logout'));
  }

  /** One of each thing a staff write acts on, made the way members and staff make them. */
  async function world(owner: { headers: Headers; staffHeaders: Headers }): Promise<Record<string, Fixture>> {
    const now = t().clock.now();
    const db = t().db;
    const member = await signUpMember(t().app, db);
    const target = await signUpMember(t().app, db);
    const banned = await signUpMember(t().app, db);
    const liftable = await signUpMember(t().app, db);
    const anon = (await db.selectFrom('users').select('anonymous_id').where('id', '=', target.user.uid).executeTakeFirstOrThrow())
      .anonymous_id!;
    await ok('POST', `/admin/users/${banned.user.uid}/ban`, owner.staffHeaders, { reason: 'Spam in every chat' });
    await ok('POST', `/admin/users/${liftable.user.uid}/ban`, owner.staffHeaders, { reason: 'Rude, then appealed' });
    const hash = (await ok('GET', '/admin/bans?q=every%20chat', owner.staffHeaders)).rows[0].hash as string;
    const mod = await signUpStaff(t().app, db, 'moderator', now);
    const leaving = await signUpStaff(t().app, db, 'moderator', now);
    const invite = await ok('POST', '/admin/team/invites', owner.staffHeaders, {
      email: `invite-${randomUUID()}@example.com`,
      role: 'moderator',
    });
    const itemId = randomUUID();
    await db
      .insertInto('moderation_items')
      .values({
        id: itemId,
        content_type: 'profile_photo',
        content_id: randomUUID(),
        user_id: member.user.uid,
        storage_key: null,
        status: 'pending',
        flagged_reason: 'nudity',
        confidence: 0.9,
        ai_analysis: JSON.stringify({ nudity: 0.9, violence: 0, hate_speech: 0, spam: 0, underage: 0 }),
        moderator_id: null,
        moderator_notes: null,
        created_at: now,
        reviewed_at: null,
      } as never)
      .execute();
    const report = await ok('POST', `/users/${target.user.uid}/report`, member.headers, {
      reason: 'Rude messages',
      category: 'harassment',
    });
    const feedback = await ok('POST', '/support/reports', member.headers, {
      kind: 'bug',
      category: 'grid',
      text: 'The grid does not load on my phone.',
    });
    const thread = await ok('POST', '/support/threads', member.headers, { subject: 'Billing', text: 'I was charged twice.' });
    const closing = await ok('POST', '/support/threads', member.headers, { subject: 'Login', text: 'I cannot sign in.' });
    const prompt = await ok('POST', '/admin/prompts', owner.staffHeaders, { text: 'My perfect Sunday is…' });
    const doomed = await ok('POST', '/admin/prompts', owner.staffHeaders, { text: 'A prompt to delete' });
    const proposer = await locatedUser(t().app, db, { lat: 48.85, lng: 2.35 });
    const spot = async (name: string) =>
      (await ok('POST', '/cruise/spots', proposer.headers, { name, kind: 'park', lat: 48.851, lng: 2.351 })).id as string;
    const [toApprove, toReject, toEdit] = [await spot('Parc A'), await spot('Parc B'), await spot('Parc C')];
    const paid = await ok('POST', '/payments/one-time', member.headers, {
      source_id: 'cnon:card-nonce-ok',
      amount_money: { amount: 500, currency: 'USD' },
      idempotency_key: `walk-${randomUUID()}`,
    });

    return {
      'POST /admin/logout': { action: 'staff_sign_out' },
      'POST /admin/me/recovery-codes': { action: 'recovery_codes_renewed' },
      'POST /admin/users/:id/ban': { params: { id: target.user.uid }, body: { reason: 'Threats' }, action: 'ban_email' },
      'POST /admin/users/:id/unban': {
        params: { id: liftable.user.uid },
        body: { reason: 'Appeal accepted' },
        action: 'unban_email',
      },
      'POST /admin/users/:id/deactivate': {
        params: { id: member.user.uid },
        body: { reason: 'Spam' },
        action: 'deactivate_user',
      },
      'POST /admin/users/:id/reactivate': {
        params: { id: member.user.uid },
        body: { reason: 'Appeal' },
        action: 'reactivate_user',
      },
      'POST /admin/users/:id/anonymous-id': {
        params: { id: member.user.uid },
        body: { reason: 'Asked by the member' },
        action: 'regenerate_anonymous_id',
      },
      'POST /admin/users/:id/tier': {
        params: { id: member.user.uid },
        body: { tier: 'premium', reason: 'Goodwill' },
        action: /^change_tier:/,
      },
      'POST /admin/identity/lookup': { body: { anonymousId: anon, reason: 'Court order 7' }, action: 'identity_lookup' },
      'DELETE /admin/bans/:hash': { params: { hash }, action: 'unban_email' },
      'PATCH /admin/team/members/:userId': {
        params: { userId: mod.user.uid },
        body: { permissions: ['users.view'] },
        action: 'staff_updated',
      },
      'DELETE /admin/team/members/:userId': { params: { userId: leaving.user.uid }, action: /^staff_/ },
      'POST /admin/team/invites': { body: { email: `new-${randomUUID()}@example.com`, role: 'admin' }, action: 'invite:admin' },
      'DELETE /admin/team/invites/:id': { params: { id: invite.id }, action: 'invite_revoked' },
      'PUT /admin/system/settings': {
        body: { enabled: true, maxUsers: 500, lifetimePremium: true, autoClose: true, reason: 'Open more places' },
        action: 'beta_settings',
      },
      'PATCH /admin/moderation/items/:id': {
        params: { id: itemId },
        body: { decision: 'reject', notes: 'Explicit' },
        action: 'content_reject',
      },
      'PATCH /admin/reports/:id': { params: { id: report.id }, body: { status: 'reviewed' }, action: 'report_reviewed' },
      'POST /admin/prompts': { body: { text: 'The best date I ever had…' }, action: 'prompt_create' },
      'POST /admin/prompts/seed': { action: 'prompt_seed' },
      'PATCH /admin/prompts/:id': { params: { id: prompt.id }, body: { isActive: false }, action: 'prompt_edit' },
      'DELETE /admin/prompts/:id': { params: { id: doomed.id }, action: 'prompt_delete' },
      'PATCH /admin/support/reports/:id': {
        params: { id: feedback.id },
        body: { status: 'in_review' },
        action: 'feedback_status',
      },
      'POST /admin/support/threads/:id/messages': {
        params: { id: thread.id },
        body: { text: 'Refunded, sorry about that.' },
        action: 'support_reply',
      },
      'PATCH /admin/support/threads/:id': { params: { id: closing.id }, body: { status: 'closed' }, action: 'support_close' },
      'PATCH /admin/features/:id': { params: { id: 'videoCall' }, body: { isEnabled: true }, action: 'feature_flag_edit' },
      'PATCH /admin/plans/:id': { params: { id: 'premium-monthly' }, body: { active: true }, action: 'plan_edit' },
      'POST /admin/locations/:id/approve': { params: { id: toApprove }, body: {}, action: 'location_approve' },
      'POST /admin/locations/:id/reject': {
        params: { id: toReject },
        body: { note: 'A private garden' },
        action: 'location_reject',
      },
      'POST /admin/payments/:id/refund': {
        params: { id: paid.payment_id },
        body: { amountCents: 200, reason: 'Charged twice', idempotencyKey: randomUUID() },
        action: 'payment_refund',
      },
      'PATCH /admin/locations/:id': {
        params: { id: toEdit },
        body: { name: 'Parc Monceau', reason: 'Its real name' },
        action: 'location_edit',
      },
    };
  }

  it('writes exactly one audit row, naming the action, for every staff write; the chain still holds', async () => {
    const owner = await signUpStaff(t().app, t().db, 'owner', t().clock.now());
    const fixtures = await world(owner);
    const routes = staffWrites();
    expect(routes.length).toBeGreaterThan(25);
    // A staff write with no fixture is one nobody has shown to be audited.
    expect(routes.filter((r) => !(r in fixtures))).toEqual([]);
    expect(Object.keys(fixtures).filter((r) => !routes.includes(r))).toEqual([]);

    // Every write is made and judged before any assertion, so the scoreboard's figure counts them all.
    const missed: string[] = [];
    for (const key of routes) {
      const f = fixtures[key]!;
      const [method, path] = key.split(' ') as [string, string];
      const url = path.replace(/:(\w+)/g, (_, p: string) => f.params?.[p] ?? `missing-${p}`);
      const last = await t().db.selectFrom('audit_log').select('id').orderBy('id', 'desc').limit(1).executeTakeFirst();
      const res = await call(method, url, owner.staffHeaders, f.body);
      if (res.statusCode >= 300) {
        missed.push(`${key}: answered ${res.statusCode} ${res.body}`);
        continue;
      }
      const rows = await t()
        .db.selectFrom('audit_log')
        .selectAll()
        .where('id', '>', last?.id ?? 0)
        .execute();
      const row = rows[0];
      const named = row && (typeof f.action === 'string' ? row.action === f.action : f.action.test(row.action));
      if (rows.length !== 1 || !row || !named || row.admin_id !== owner.user.uid || !row.ip_address)
        missed.push(
          `${key}: ${rows.length} rows (${rows.map((r) => `${r.action} by ${r.admin_id} from ${r.ip_address}`).join(', ')})`,
        );
    }
    const chain = await verifyAudit(t().db);
    const audited = routes.length - missed.length;
    recordScore({
      id: '11-audit',
      measure:
        'Audit: every staff write route (from Fastify) made once; exactly one audit row naming the action, the staff member and his address; the hash chain verifies',
      figure: `${audited} / ${routes.length} staff writes audited (${((audited / routes.length) * 100).toFixed(1)} %); chain ${chain.ok ? 'verifies' : 'broken'}`,
      goal: '100 %, chain verifies',
      pass: missed.length === 0 && chain.ok,
      db: kind,
    });
    expect(missed).toEqual([]);
    expect(chain).toMatchObject({ ok: true });
  });

  it('writes no audit row when the write is refused, and nothing changes', async () => {
    const owner = await signUpStaff(t().app, t().db, 'owner', t().clock.now());
    const before = await t().db.selectFrom('audit_log').select('id').orderBy('id', 'desc').limit(1).executeTakeFirst();
    const missing = randomUUID();
    const refused = [
      await call('PATCH', `/admin/reports/${missing}`, owner.staffHeaders, { status: 'reviewed' }),
      await call('PATCH', `/admin/prompts/${missing}`, owner.staffHeaders, { isActive: false }),
      await call('DELETE', `/admin/prompts/${missing}`, owner.staffHeaders),
      await call('PATCH', `/admin/support/threads/${missing}`, owner.staffHeaders, { status: 'closed' }),
      await call('PATCH', '/admin/features/noSuchFeature', owner.staffHeaders, { isEnabled: true }),
      await call('POST', `/admin/locations/${missing}/approve`, owner.staffHeaders, {}),
      await call('PATCH', `/admin/moderation/items/${missing}`, owner.staffHeaders, { decision: 'approve' }),
      await call('POST', `/admin/payments/${missing}/refund`, owner.staffHeaders, {
        reason: 'Charged twice',
        idempotencyKey: randomUUID(),
      }),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404, 404, 404, 404]);
    const after = await t().db.selectFrom('audit_log').select('id').orderBy('id', 'desc').limit(1).executeTakeFirst();
    expect(after?.id).toEqual(before?.id);
  });
});
