import { DEFAULT_APP_PREFERENCES, DEFAULT_MODE_SETTINGS, type Me } from '@fmk/core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { signUp } from '../../../test/factories.ts';
import { DB_KINDS, type TestApp, useTestApp } from '../../../test/harness.ts';
import { multipartFile } from '../../../test/multipart.ts';

type Headers = { authorization: string };

const answer = (n: number, text = `answer ${n}`) => ({
  promptId: `starter-${n}`,
  question: 'ignored: the server uses the prompt text',
  answer: text,
});

async function usage(t: TestApp, ids: string[]): Promise<Record<string, number>> {
  const rows = await t.db.selectFrom('prompts').select(['id', 'usage_count']).where('id', 'in', ids).execute();
  return Object.fromEntries(rows.map((r) => [r.id, r.usage_count]));
}

describe.each(DB_KINDS)('profiles on %s', (kind) => {
  const t = useTestApp(kind);
  const patch = (headers: Headers, payload: unknown) =>
    t().app.inject({ method: 'PATCH', url: '/api/v1/me', headers, payload: payload as object });
  const rawUser = (id: string) => t().db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('GET /me requires authentication', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }]) {
      const res = await t().app.inject({ method: 'GET', url: '/api/v1/me', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: 'unauthenticated', message: 'Authentication required' });
    }
    const res = await t().app.inject({ method: 'PATCH', url: '/api/v1/me', payload: { bio: 'x' } });
    expect(res.statusCode).toBe(401);
  });

  it('GET /me returns the spec defaults for a new user', async () => {
    const { headers, user } = await signUp(t().app);
    const res = await t().app.inject({ method: 'GET', url: '/api/v1/me', headers });
    expect(res.statusCode).toBe(200);
    const me = res.json() as Me;
    expect(me).toMatchObject({
      uid: user.uid,
      age: 18,
      position: 'Vers',
      onboardingComplete: false,
      photos: [],
      preferences: { ageRange: [18, 50], maxDistance: 50, showMe: 'everyone', units: 'imperial' },
      modeVisibility: {
        showInDating: true,
        showInNow: false,
        datingVisibleToAll: true,
        nowVisibleToAll: false,
        hideFromMatches: false,
      },
      appPreferences: DEFAULT_APP_PREFERENCES,
      modeSettings: DEFAULT_MODE_SETTINGS,
    });
  });

  it('PATCH /me edits every field group, and GET /me and the database agree', async () => {
    const { headers, user } = await signUp(t().app);
    const edit = {
      displayName: 'Jordan',
      age: 34,
      bio: 'Architect who bakes.',
      gender: 'Man',
      interests: ['Baking', 'Cycling'],
      intentions: ['Dating'],
      tribes: ['Geek', 'Otter'],
      preferences: { ageRange: [28, 45], maxDistance: 30, showMe: 'men', units: 'metric' },
      datingProfile: {
        bio: 'Looking for my person.',
        relationshipGoals: ['Something serious'],
        lookingFor: ['Relationship'],
        interests: ['Film'],
        values: ['Honesty', 'Kindness'],
        dealBreakers: ['Smoking'],
        lifestyle: ['Early riser'],
        prompts: [answer(9, 'likes dogs.'), answer(10, 'a museum and tacos.')],
      },
      nowProfile: {
        quickStats: { build: 'Athletic', height: 183 },
        position: 'Vers Top',
        lookingFor: ['Chat', 'Right now'],
        availability: 'hosting',
        rightNow: 'Free after 8',
        aboutMe: 'Direct and friendly.',
        tribes: ['Jock'],
        kinks: ['Kissing'],
        safetyInfo: 'On PrEP, tested monthly.',
      },
      modeVisibility: {
        showInDating: false,
        showInNow: true,
        datingVisibleToAll: false,
        nowVisibleToAll: true,
        hideFromMatches: true,
      },
    } as const;
    const res = await patch(headers, edit);
    expect(res.statusCode, res.body).toBe(200);
    const expected = {
      ...edit,
      datingProfile: {
        ...edit.datingProfile,
        selectedPhotos: [],
        prompts: [
          { ...edit.datingProfile.prompts[0], question: "I'm looking for someone who..." },
          { ...edit.datingProfile.prompts[1], question: 'The way to win me over is...' },
        ],
      },
      nowProfile: { ...edit.nowProfile, selectedPhotos: [] },
      height: 183,
      position: 'Vers Top',
    };
    expect(res.json()).toMatchObject(expected);
    const me = (await t().app.inject({ method: 'GET', url: '/api/v1/me', headers })).json() as Me;
    expect(me).toMatchObject(expected);
    expect(me.modeSettings.useMetric).toBe(true);
    const row = await rawUser(user.uid);
    expect(row).toMatchObject({
      display_name: 'Jordan',
      age: 34,
      gender: 'Man',
      tribes: ['Geek', 'Otter'],
      preferences: edit.preferences,
      mode_visibility: edit.modeVisibility,
      now_profile: expected.nowProfile,
      dating_profile: expected.datingProfile,
    });
    // Clearing a nullable field and emptying lists work too.
    const cleared = (await patch(headers, { gender: null, nowProfile: { rightNow: null, kinks: [] } })).json() as Me;
    expect(cleared.gender).toBeNull();
    expect(cleared.nowProfile).toMatchObject({ rightNow: null, kinks: [], availability: 'hosting' });
  });

  it('PATCH /me appPreferences: stored in their columns, and choosing marry turns cruising off', async () => {
    const { headers, user } = await signUp(t().app);
    const off = await patch(headers, { appPreferences: { healthEnabled: false, rightNowEnabled: true } });
    expect(off.statusCode).toBe(200);
    expect((off.json() as Me).appPreferences).toEqual({
      ...DEFAULT_APP_PREFERENCES,
      healthEnabled: false,
      rightNowEnabled: true,
    });

    const marry = (await patch(headers, { appPreferences: { appMode: 'marry', cruisingEnabled: true } })).json() as Me;
    expect(marry.appPreferences).toEqual({
      appMode: 'marry',
      cruisingEnabled: false,
      healthEnabled: false,
      activityTrackingEnabled: true,
      rightNowEnabled: true,
    });
    expect(await rawUser(user.uid)).toMatchObject({
      app_mode: 'marry',
      cruising_enabled: false,
      health_enabled: false,
      activity_tracking_enabled: true,
      right_now_enabled: true,
    });
    // Still marry-only: cruising cannot come back on.
    const still = (await patch(headers, { appPreferences: { cruisingEnabled: true } })).json() as Me;
    expect(still.appPreferences.cruisingEnabled).toBe(false);
    const fuck = (await patch(headers, { appPreferences: { appMode: 'fuck', cruisingEnabled: true } })).json() as Me;
    expect(fuck.appPreferences).toMatchObject({ appMode: 'fuck', cruisingEnabled: true });

    for (const bad of [{ appMode: 'marry' }, { currentMode: 'now' }, { appPreferences: { appMode: 'kiss' } }]) {
      const r = await patch(headers, bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await rawUser(user.uid)).app_mode).toBe('fuck');
  });

  it('PATCH /me modeSettings merges top-level keys over the defaults; useMetric is preferences.units', async () => {
    const { headers, user } = await signUp(t().app);
    expect((await rawUser(user.uid)).mode_settings).toBeNull();
    const first = (
      await patch(headers, {
        modeSettings: { autoSwitchByTime: true, timeBasedSwitching: { datingStart: '10:00', datingEnd: '01:30' } },
      })
    ).json() as Me;
    expect(first.modeSettings).toEqual({
      ...DEFAULT_MODE_SETTINGS,
      autoSwitchByTime: true,
      timeBasedSwitching: { datingStart: '10:00', datingEnd: '01:30' },
    });
    const second = (
      await patch(headers, {
        modeSettings: {
          hasCompletedModeSetup: true,
          privacySettings: { showModeInProfile: false, allowCrossModeMatching: true },
        },
      })
    ).json() as Me;
    expect(second.modeSettings).toMatchObject({
      autoSwitchByTime: true,
      hasCompletedModeSetup: true,
      timeBasedSwitching: { datingStart: '10:00', datingEnd: '01:30' },
      privacySettings: { showModeInProfile: false, allowCrossModeMatching: true },
      modePreferences: DEFAULT_MODE_SETTINGS.modePreferences,
    });

    const metric = (await patch(headers, { modeSettings: { useMetric: true } })).json() as Me;
    expect(metric.modeSettings.useMetric).toBe(true);
    expect(metric.preferences.units).toBe('metric');
    const imperial = (await patch(headers, { preferences: { units: 'imperial' } })).json() as Me;
    expect(imperial.modeSettings.useMetric).toBe(false);

    const before = await rawUser(user.uid);
    for (const bad of [
      { modeSettings: { timeBasedSwitching: { datingStart: '25:00', datingEnd: '21:00' } } },
      { modeSettings: { timeBasedSwitching: { datingStart: '09:00' } } },
      { modeSettings: { autoSwitchByTime: 'yes' } },
      { modeSettings: { modePreferences: { dating: { ageRange: [22, 35], saferOptions: true, healthTracking: true } } } },
    ]) {
      const r = await patch(headers, bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(await rawUser(user.uid)).toEqual(before);
  });

  it('PATCH /me updates fields and merges nested sections shallowly', async () => {
    const { headers, user } = await signUp(t().app);
    const first = await patch(headers, {
      displayName: '  Sam  ',
      age: 31,
      bio: 'Climber, cook.',
      tribes: ['Otter'],
      preferences: { maxDistance: 25 },
      nowProfile: { quickStats: { build: 'Athletic', height: 180 } },
      modeVisibility: { showInNow: true },
    });
    expect(first.statusCode).toBe(200);
    const me = first.json() as Me;
    expect(me).toMatchObject({
      displayName: 'Sam',
      age: 31,
      bio: 'Climber, cook.',
      tribes: ['Otter'],
      height: 180,
      position: 'Vers',
    });
    expect(me.preferences).toEqual({ ageRange: [18, 50], maxDistance: 25, showMe: 'everyone', units: 'imperial' });
    expect(me.modeVisibility.showInNow).toBe(true);
    expect(me.modeVisibility.showInDating).toBe(true);

    const second = (await patch(headers, { preferences: { units: 'metric' }, nowProfile: { position: 'Top' } })).json() as Me;
    expect(second.preferences).toEqual({ ageRange: [18, 50], maxDistance: 25, showMe: 'everyone', units: 'metric' });
    expect(second.nowProfile.quickStats).toEqual({ build: 'Athletic', height: 180 });
    expect(second.position).toBe('Top');
    expect(second.displayName).toBe('Sam');
    const row = await rawUser(user.uid);
    expect(row.preferences.maxDistance).toBe(25);
    expect(row.now_profile.position).toBe('Top');
  });

  it('refuses bad input with a clear 400 and writes nothing', async () => {
    const { headers, user } = await signUp(t().app);
    await patch(headers, { displayName: 'Before', age: 30 });
    const before = await rawUser(user.uid);
    const cases: [unknown, RegExp][] = [
      [{ age: 17 }, /^You must be 18 or older to use FMK\.$/],
      [{ age: '30' }, /./],
      [{ displayName: 'After', favouriteColour: 'red' }, /favouriteColour/],
      [{ displayName: 42 }, /./],
      [{ displayName: '   ' }, /Enter a display name/],
      [{ tribes: 'Bear' }, /./],
      [{ preferences: { ageRange: [40, 20] } }, /youngest age/],
      [{ preferences: { maxDistance: -1 } }, /./],
      [{ nowProfile: { position: 'Upside' } }, /./],
      [
        { displayName: 'After', datingProfile: { prompts: [answer(1), { ...answer(2), promptId: 'no-such-prompt' }] } },
        /not available/,
      ],
      [{ datingProfile: { prompts: [answer(1), answer(1)] } }, /only once/],
      [{ datingProfile: { prompts: [{ ...answer(1), answer: '   ' }] } }, /Write an answer/],
      [{ datingProfile: { selectedPhotos: ['someone-elses-photo'] } }, /photos on your profile/],
    ];
    for (const [body, message] of cases) {
      const res = await patch(headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe('invalid_input');
      expect(res.json().message).toMatch(message);
    }
    const after = await rawUser(user.uid);
    expect(after).toEqual(before);
    expect(Object.values(await usage(t(), ['starter-1', 'starter-2']))).toEqual([0, 0]);
  });

  it('accepts only active prompts, uses their text and keeps usage counts true', async () => {
    const ids = ['starter-1', 'starter-2', 'starter-3', 'starter-4'];
    const start = await usage(t(), ids);
    const a = await signUp(t().app);
    const b = await signUp(t().app);

    const res = await patch(a.headers, { datingProfile: { prompts: [answer(1), answer(2)] } });
    expect(res.statusCode).toBe(200);
    const prompts = (res.json() as Me).datingProfile.prompts;
    expect(prompts.map((p) => p.question)).toEqual(["We'll get along if...", 'My ideal Sunday looks like...']);
    await patch(b.headers, { datingProfile: { prompts: [answer(2), answer(3)] } });
    expect(await usage(t(), ids)).toEqual({
      ...start,
      'starter-1': start['starter-1']! + 1,
      'starter-2': start['starter-2']! + 2,
      'starter-3': start['starter-3']! + 1,
    });

    // a swaps prompt 1 for 4 and edits the answer to 2: only the swap moves the counts.
    await patch(a.headers, { datingProfile: { prompts: [answer(2, 'new words'), answer(4)] } });
    expect(await usage(t(), ids)).toEqual({
      ...start,
      'starter-2': start['starter-2']! + 2,
      'starter-3': start['starter-3']! + 1,
      'starter-4': start['starter-4']! + 1,
    });

    // An inactive prompt cannot be newly chosen, but one already answered may stay.
    await t().db.updateTable('prompts').set({ is_active: false }).where('id', 'in', ['starter-4', 'starter-5']).execute();
    const refused = await patch(b.headers, { datingProfile: { prompts: [answer(2), answer(5)] } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('That prompt is not available. Choose another one.');
    const kept = await patch(a.headers, { datingProfile: { prompts: [answer(4), answer(2, 'again')] } });
    expect(kept.statusCode).toBe(200);
    await t().db.updateTable('prompts').set({ is_active: true }).where('id', 'in', ['starter-4', 'starter-5']).execute();
  });

  it('refuses a fourth dating prompt and writes nothing', async () => {
    const user = await signUp(t().app);
    const before = await rawUser(user.user.uid);
    const res = await patch(user.headers, { datingProfile: { prompts: [answer(1), answer(2), answer(3), answer(4)] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Choose at most 3 prompts.');
    expect(await rawUser(user.user.uid)).toEqual(before);
  });

  it('completes onboarding only once the profile is complete', async () => {
    const { headers } = await signUp(t().app);
    const complete = () => t().app.inject({ method: 'POST', url: '/api/v1/me/onboarding/complete', headers });

    const refused = await complete();
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: 'profile_incomplete',
      message: expect.stringMatching(/^Complete your profile first/),
    });
    expect(Object.keys(refused.json().fields).sort()).toEqual(['bio', 'displayName', 'height', 'photo', 'prompts']);

    await patch(headers, { displayName: 'Kai', bio: 'Hello', nowProfile: { quickStats: { build: null, height: 175 } } });
    await patch(headers, { datingProfile: { prompts: [answer(6)] } });
    const still = await complete();
    expect(Object.keys(still.json().fields).sort()).toEqual(['photo', 'prompts']);
    expect((await t().app.inject({ method: 'GET', url: '/api/v1/me', headers })).json().onboardingComplete).toBe(false);

    await patch(headers, { datingProfile: { prompts: [answer(6), answer(7)] } });
    const jpeg = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#3a6' } })
      .jpeg()
      .toBuffer();
    const form = multipartFile(jpeg);
    const up = await t().app.inject({
      method: 'POST',
      url: '/api/v1/me/photos',
      headers: { ...headers, ...form.headers },
      payload: form.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const done = await complete();
    expect(done.statusCode).toBe(200);
    expect((done.json() as Me).onboardingComplete).toBe(true);
    expect((await t().app.inject({ method: 'GET', url: '/api/v1/me', headers })).json().onboardingComplete).toBe(true);
  });
});
