import { DEFAULT_SETTINGS, INCOGNITO_UPSELL, PRIVACY_UPSELL, SETTINGS_CONFLICT, type Settings, toSettings } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { setTier, signUp } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { loadActor } from '../../platform/access.ts';
import { storedFromRow } from '../../platform/settings/columns.ts';

type Headers = Record<string, string>;

describe.each(DB_KINDS)('the settings store on %s', (kind) => {
  const t = useTestApp(kind);
  const get = (headers: Headers) => t().app.inject({ method: 'GET', url: '/api/v1/me/settings', headers });
  const patch = (headers: Headers, payload: object) =>
    t().app.inject({ method: 'PATCH', url: '/api/v1/me/settings', headers, payload });
  const withoutTime = (s: Settings) => ({ ...s, updatedAt: null });

  it('answers the defaults before anything is saved', async () => {
    const me = await signUp(t().app);
    const res = await get(me.headers);
    expect(res.statusCode).toBe(200);
    expect(withoutTime(res.json())).toEqual(toSettings(DEFAULT_SETTINGS, null));
  });

  it("the columns' own defaults are core's defaults (a row written with nothing but its key)", async () => {
    const me = await signUp(t().app);
    await t().db.deleteFrom('user_settings').where('user_id', '=', me.user.uid).execute();
    await t()
      .db.insertInto('user_settings')
      .values({ user_id: me.user.uid, gender_preferences: '[]', relationship_status_preferences: '[]' })
      .execute();
    const row = await t().db.selectFrom('user_settings').selectAll().where('user_id', '=', me.user.uid).executeTakeFirstOrThrow();
    expect(storedFromRow(row, null)).toEqual(DEFAULT_SETTINGS);
  });

  it('round-trips a change of every group, and the actor carries it for can()', async () => {
    const me = await signUp(t().app);
    await setTier(t().db, me.user.uid, 'premium');
    const change = {
      privacy: { shareDistance: false, messagesFrom: 'matches', showCurrentMode: false, incognito: true },
      notifications: { channels: { email: true }, kinds: { likes: { push: false }, matches: { email: false } } },
      safety: {
        contentFiltering: { strictMode: true },
        locationSafety: { shareOnlyWithMatches: true },
        communicationSafety: { requirePhoneVerification: true },
        meetupSafety: { safeWordEnabled: true },
        privacySettings: { hideLastSeen: true, restrictUnverifiedContacts: true },
      },
    };
    const res = await patch(me.headers, change);
    expect(res.statusCode, res.body).toBe(200);
    const s: Settings = res.json();
    expect(s.privacy).toMatchObject({ ...change.privacy, showLastActive: false });
    expect(s.notifications.channels.email).toBe(true);
    expect(s.notifications.kinds.likes).toEqual({ push: false, email: false, inApp: true });
    expect(s.notifications.kinds.matches.email).toBe(false);
    expect(s.safety.contentFiltering.strictMode).toBe(true);
    expect(s.safety.communicationSafety).toMatchObject({ requirePhoneVerification: true, blockUnverifiedUsers: true });
    expect(s.safety.privacySettings).toEqual({
      hideFromSearch: false,
      hideLastSeen: true,
      hideReadReceipts: false,
      restrictUnverifiedContacts: true,
    });
    expect(s.updatedAt).not.toBeNull();
    // Read back: the same, and the mode settings' showModeInProfile is the same switch.
    expect((await get(me.headers)).json()).toEqual(s);
    const me2 = await t().app.inject({ method: 'GET', url: '/api/v1/me', headers: me.headers });
    expect(me2.json().modeSettings.privacySettings).toEqual({ showModeInProfile: false, allowCrossModeMatching: false });
    const actor = (await loadActor(t().db, me.user.uid))!;
    expect(toSettings(actor.userSettings, null)).toEqual({ ...s, updatedAt: null });
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const me = await signUp(t().app);
    await setTier(t().db, me.user.uid, 'premium');
    await patch(me.headers, { safety: { meetupSafety: { publicPlaceReminders: false } } });
    const before = (await get(me.headers)).json();
    for (const body of [
      { privacy: { incognito: true }, extra: 1 },
      { privacy: { incognito: true, nope: true } },
      { notifications: { kinds: { spam: { push: false } } } },
      { notifications: { kinds: { likes: { push: 'no' } } } },
      { safety: { contentFiltering: { enabled: false, volume: 3 } } },
      { privacy: { profileVisibility: 'friends' } },
      { privacy: { messagesFrom: 'nobody' } },
    ]) {
      const res = await patch(me.headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    const clash = await patch(me.headers, {
      privacy: { showReadReceipts: true },
      safety: { privacySettings: { hideReadReceipts: true } },
    });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().message).toBe(SETTINGS_CONFLICT);
    expect((await get(me.headers)).json()).toEqual(before);
  });

  it('refuses a free member every privacy control with the upgrade text, and changes nothing', async () => {
    const me = await signUp(t().app);
    await setTier(t().db, me.user.uid, 'free');
    const before = (await get(me.headers)).json();
    for (const privacy of [
      { profileVisibility: 'matches' },
      { showCurrentMode: false },
      { shareDistance: false },
      { showOnlineStatus: false },
      { showLastActive: false },
      { showReadReceipts: false },
      { messagesFrom: 'matches' },
      { cruisingPrivate: true },
      { healthPrivate: true },
      { activityPrivate: true },
    ]) {
      const res = await patch(me.headers, { privacy, safety: { meetupSafety: { safeWordEnabled: true } } });
      expect(res.statusCode, JSON.stringify(privacy)).toBe(403);
      expect(res.json()).toEqual({ error: 'limit_reached', message: PRIVACY_UPSELL });
    }
    const hidden = await patch(me.headers, { safety: { privacySettings: { hideFromSearch: true } } });
    expect(hidden.json().message).toBe(PRIVACY_UPSELL);
    const incognito = await patch(me.headers, { privacy: { incognito: true } });
    expect(incognito.statusCode).toBe(403);
    expect(incognito.json().message).toBe(INCOGNITO_UPSELL);
    expect((await get(me.headers)).json()).toEqual(before);
    // What is not a privacy control is his to change, and the default is always his to go back to.
    const safety = await patch(me.headers, {
      privacy: { shareDistance: true },
      safety: { privacySettings: { restrictUnverifiedContacts: true } },
      notifications: { kinds: { likes: { push: false } } },
    });
    expect(safety.statusCode, safety.body).toBe(200);
  });

  it('lets a member whose Premium ended go back to the open defaults', async () => {
    const me = await signUp(t().app);
    await setTier(t().db, me.user.uid, 'premium');
    expect((await patch(me.headers, { privacy: { shareDistance: false, incognito: true } })).statusCode).toBe(200);
    await setTier(t().db, me.user.uid, 'free');
    const back = await patch(me.headers, { privacy: { shareDistance: true, incognito: false } });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().privacy).toMatchObject({ shareDistance: true, incognito: false });
  });

  it('needs a session', async () => {
    expect((await t().app.inject({ method: 'GET', url: '/api/v1/me/settings' })).statusCode).toBe(401);
    expect((await t().app.inject({ method: 'PATCH', url: '/api/v1/me/settings', payload: {} })).statusCode).toBe(401);
  });
});
