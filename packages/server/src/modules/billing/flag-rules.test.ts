import { COUNTED_FEATURES, type CountedFeature, DEFAULT_FLAGS, GATED_FEATURES, type Tier, UNLIMITED } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { setTier, signUp, signUpStaff } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { loadActor } from '../../platform/access.ts';
import { loadTierLimits } from '../../platform/flags.ts';

type Headers = Record<string, string>;

/**
 * Every tier rule reads the flag store: a staff edit of a flag's isPremium or limit through the
 * admin route changes what the server lets a member of the affected tier do, at once.
 */
describe.each(DB_KINDS)('flag edits drive the tier rules on %s', (kind) => {
  const t = useTestApp(kind);
  const call = (method: 'GET' | 'PATCH' | 'POST', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  async function member(tier: Tier) {
    const u = await signUp(t().app);
    await setTier(t().db, u.user.uid, tier);
    return { id: u.user.uid, h: u.headers };
  }
  const owner = () => signUpStaff(t().app, t().db, 'owner', t().clock.now()).then((s) => s.staffHeaders);
  const rulesOf = async (id: string) => (await loadActor(t().db, id))?.rules;
  async function edit(h: Headers, id: string, patch: object) {
    const res = await call('PATCH', `/admin/features/${id}`, h, patch);
    expect(res.statusCode, res.body).toBe(200);
  }
  /** Puts a flag back as seeded, so the next case starts from the spec's table. */
  async function restore(h: Headers, id: string) {
    const seed = DEFAULT_FLAGS.find((f) => f.id === id)!;
    await edit(h, id, { isEnabled: seed.isEnabled, isPremium: seed.isPremium, limit: seed.limit });
  }

  it('a counted feature: its limit becomes the free allowance, isPremium takes it from free members', async () => {
    const staff = await owner();
    const free = await member('free');
    const premium = await member('premium');
    for (const id of COUNTED_FEATURES) {
      const seededFree = DEFAULT_FLAGS.find((f) => f.id === id)!.tierLimits!.free;
      const wanted = seededFree === 7 ? 9 : 7;
      try {
        await edit(staff, id, { limit: wanted });
        expect((await rulesOf(free.id))?.limits[id as CountedFeature], id).toBe(wanted);
        await edit(staff, id, { limit: 0 });
        expect((await rulesOf(free.id))?.limits[id], `${id} 0 = unlimited`).toBe(UNLIMITED);
        await edit(staff, id, { limit: null, isPremium: true });
        expect((await rulesOf(free.id))?.limits[id], `${id} premium only`).toBe(0);
        // A paid tier keeps its own allowance.
        const seededPremium = DEFAULT_FLAGS.find((f) => f.id === id)!.tierLimits!.premium;
        expect((await rulesOf(premium.id))?.limits[id], `${id} premium`).toBe(seededPremium);
      } finally {
        await restore(staff, id);
      }
      expect((await rulesOf(free.id))?.limits[id], `${id} restored`).toBe(seededFree);
    }
  });

  it('a yes/no feature: isPremium off opens it to free members, on closes it again', async () => {
    const staff = await owner();
    const free = await member('free');
    const premium = await member('premium');
    for (const id of GATED_FEATURES) {
      expect((await rulesOf(free.id))?.has[id], id).toBe(false);
      try {
        await edit(staff, id, { isPremium: false });
        expect((await rulesOf(free.id))?.has[id], `${id} opened`).toBe(true);
        await edit(staff, id, { isEnabled: false });
        expect((await rulesOf(premium.id))?.has[id], `${id} off for all`).toBe(false);
      } finally {
        await restore(staff, id);
      }
      expect((await rulesOf(free.id))?.has[id], `${id} restored`).toBe(false);
    }
  });

  it('the routes follow: incognito, privacy controls, included boosts and the message send limit', async () => {
    const staff = await owner();
    const free = await member('free');
    const platinum = await member('platinum');
    const incognito = () => call('PATCH', '/me/settings', free.h, { privacy: { incognito: true } });
    const shareDistance = () => call('PATCH', '/me/settings', free.h, { privacy: { shareDistance: false } });
    expect((await incognito()).statusCode).toBe(403);
    expect((await shareDistance()).statusCode).toBe(403);
    try {
      await edit(staff, 'incognito', { isPremium: false });
      expect((await incognito()).statusCode).toBe(200);
      expect((await shareDistance()).statusCode).toBe(403);
      await edit(staff, 'privacyControls', { isPremium: false });
      expect((await shareDistance()).statusCode).toBe(200);
    } finally {
      await restore(staff, 'incognito');
      await restore(staff, 'privacyControls');
    }
    await call('PATCH', '/me/settings', free.h, { privacy: { incognito: false } });
    expect((await incognito()).statusCode).toBe(403);

    expect((await call('GET', '/boost', platinum.h)).json().includedPerDay).toBe(1);
    try {
      await edit(staff, 'boostsPerDay', { limit: 3 });
      expect((await call('GET', '/boost', platinum.h)).json().includedPerDay).toBe(3);
    } finally {
      await restore(staff, 'boostsPerDay');
    }
    expect((await call('GET', '/boost', platinum.h)).json().includedPerDay).toBe(1);

    // The message send is checked in SQL; its per-tier parameter comes from the same rules.
    try {
      await edit(staff, 'messagesPerDay', { limit: 2 });
      expect(await loadTierLimits(t().db, 'messagesPerDay')).toEqual({ free: 2, premium: 50, platinum: UNLIMITED });
    } finally {
      await restore(staff, 'messagesPerDay');
    }
    expect(await loadTierLimits(t().db, 'messagesPerDay')).toEqual({ free: 5, premium: 50, platinum: UNLIMITED });
  });
});
