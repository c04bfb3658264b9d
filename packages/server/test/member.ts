import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { expect } from 'vitest';
import { newEmail, signUpMember } from './factories.ts';
import type { TestApp } from './harness.ts';
import { multipartFile } from './multipart.ts';

// A member with a row in every category the server keeps, made through
// the API where a route exists and by plain inserts for what needs staff or a browser.

/** The member's phone number (every row holding it names him too). */
export const PHONE = '+14155550123';

export type Member = Awaited<ReturnType<typeof signUpMember>>;

const jpeg = (colour: string) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();

export async function fullMember(t: TestApp): Promise<{ me: Member; partner: Member; other: Member }> {
  const { app, db } = t;
  const me = await signUpMember(app, db, { email: newEmail('erase') });
  const partner = await signUpMember(app, db);
  const other = await signUpMember(app, db);
  const call = async (u: Member, method: 'POST' | 'PUT' | 'PATCH', url: string, payload?: object, ok = [200, 201, 204]) => {
    const res = await app.inject({ method, url: `/api/v1${url}`, headers: u.headers, ...(payload ? { payload } : {}) });
    expect(ok, `${method} ${url}: ${res.body}`).toContain(res.statusCode);
    return res;
  };
  await call(me, 'PATCH', '/me', { displayName: 'Erik', bio: 'Hello there' });

  const photo = multipartFile(await jpeg('#c33'));
  const up = await app.inject({
    method: 'POST',
    url: '/api/v1/me/photos',
    headers: { ...me.headers, ...photo.headers },
    payload: photo.payload,
  });
  expect(up.statusCode, up.body).toBe(201);
  // The grid thumbnail is made on first request: it is a file of his too.
  expect((await app.inject({ method: 'GET', url: (up.json().url as string).replace(/\.webp$/, '.t.webp') })).statusCode).toBe(
    200,
  );

  // A match both ways, a conversation with messages both ways and a photo he sent.
  await call(me, 'POST', '/selections', { targetId: partner.user.uid, action: 'fuck', clientId: randomUUID() });
  const m = await call(partner, 'POST', '/selections', { targetId: me.user.uid, action: 'marry', clientId: randomUUID() });
  const conversationId = m.json().match.conversationId as string;
  await call(me, 'POST', `/conversations/${conversationId}/messages`, { clientId: randomUUID(), content: 'hi from me' });
  await call(partner, 'POST', `/conversations/${conversationId}/messages`, { clientId: randomUUID(), content: 'hi back' });
  const mp = multipartFile(await jpeg('#3c3'));
  const sent = await app.inject({
    method: 'POST',
    url: '/api/v1/messages/photos',
    headers: { ...me.headers, ...mp.headers },
    payload: mp.payload,
  });
  expect(sent.statusCode, sent.body).toBe(201);
  await call(me, 'POST', `/conversations/${conversationId}/messages`, {
    clientId: randomUUID(),
    type: 'photo',
    photoId: sent.json().id,
  });
  // Another man chose him (a request aimed at him), he opened a conversation with no match yet... and blocked someone.
  await call(other, 'POST', '/selections', { targetId: me.user.uid, action: 'fuck', clientId: randomUUID() });
  const third = await signUpMember(app, db);
  await call(me, 'POST', `/users/${third.user.uid}/block`);

  // Health and activity, sealed in the vault.
  await call(me, 'POST', '/health/medications', { name: 'PrEP', reminderTime: '09:00' });
  await call(me, 'POST', '/activity/contacts', { name: 'Sam', userId: partner.user.uid });
  // His partner keeps him in his own contact book, linked to his account.
  await call(partner, 'POST', '/activity/contacts', { name: 'Erik from the app', userId: me.user.uid });
  await call(me, 'PUT', '/me/location/consent', { consent: true });
  await call(me, 'PUT', '/me/location', { lat: 52.52, lng: 13.405 });

  // Support: a bug report with its screenshot, a conversation with support; a phone number waiting for its code.
  const shot = multipartFile(await jpeg('#33c'));
  const uploaded = await app.inject({
    method: 'POST',
    url: '/api/v1/support/screenshots',
    headers: { ...me.headers, ...shot.headers },
    payload: shot.payload,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  await call(me, 'POST', '/support/reports', {
    kind: 'bug',
    category: 'grid',
    text: 'The grid jumps when I scroll back up.',
    screenshotId: uploaded.json().id,
  });
  await call(me, 'POST', '/support/threads', { subject: 'My photo', text: 'Why was my photo removed?' });
  await call(me, 'POST', '/me/phone', { phone: PHONE });

  // Safety: a report he made with a screenshot (and its 'received' alert), and one about him.
  const evidence = multipartFile(await jpeg('#cc3'));
  const evidenceUp = await app.inject({
    method: 'POST',
    url: '/api/v1/reports/screenshots',
    headers: { ...me.headers, ...evidence.headers },
    payload: evidence.payload,
  });
  expect(evidenceUp.statusCode, evidenceUp.body).toBe(201);
  await call(me, 'POST', `/users/${other.user.uid}/report`, {
    reason: 'Asked me for money',
    category: 'scam',
    description: 'He wanted a gift card before meeting.',
    screenshotIds: [evidenceUp.json().id],
  });
  await call(other, 'POST', `/users/${me.user.uid}/report`, {
    reason: 'Rude',
    category: 'harassment',
    description: 'He was rude to me.',
  });

  // Rows without a route the test can drive simply: likes, cruise, push, staff records.
  const now = t.clock.now();
  const promptId = randomUUID();
  await db
    .insertInto('prompts')
    .values({ id: promptId, text: 'My ideal Sunday', category: 'fun', created_by: 'admin', updated_at: now })
    .execute();
  await db
    .insertInto('prompt_likes')
    .values({ prompt_id: promptId, owner_id: partner.user.uid, liker_id: me.user.uid })
    .execute();
  await db.insertInto('prompt_likes').values({ prompt_id: promptId, owner_id: me.user.uid, liker_id: other.user.uid }).execute();
  await db
    .insertInto('cruise_sessions')
    .values({
      id: randomUUID(),
      user_id: me.user.uid,
      started_at: now,
      ends_at: new Date(now.getTime() + 3600_000),
      ended_at: null,
      minutes: null,
      end_reason: null,
      right_now: 'coffee?',
    })
    .execute();
  const spotId = randomUUID();
  await db
    .insertInto('cruising_spots')
    .values({ id: spotId, name: 'The park', kind: 'park', lat: 52.5, lng: 13.4, proposed_by: me.user.uid, created_at: now })
    .execute();
  await db
    .insertInto('spot_checkins')
    .values({ id: randomUUID(), spot_id: spotId, user_id: me.user.uid, checked_in_at: now, until: now })
    .execute();
  const eventId = randomUUID();
  await db
    .insertInto('group_events')
    .values({
      id: eventId,
      creator_id: partner.user.uid,
      title: 'Picnic',
      place_name: 'Park',
      lat: 52.5,
      lng: 13.4,
      starts_at: now,
      ends_at: now,
      created_at: now,
    })
    .execute();
  await db.insertInto('event_attendees').values({ event_id: eventId, user_id: me.user.uid, joined_at: now }).execute();
  await db
    .insertInto('event_comments')
    .values({ id: randomUUID(), event_id: eventId, user_id: me.user.uid, body: 'count me in', created_at: now })
    .execute();
  await db
    .insertInto('push_subscriptions')
    .values({
      id: randomUUID(),
      user_id: me.user.uid,
      endpoint: 'https://push.example/abc',
      p256dh: 'k',
      auth: 'a',
      user_agent: 'test',
      created_at: now,
      updated_at: now,
    })
    .execute();
  const anonymousId = (
    await db.selectFrom('users').select('anonymous_id').where('id', '=', me.user.uid).executeTakeFirstOrThrow()
  ).anonymous_id;
  await db
    .insertInto('audit_log')
    .values({
      admin_id: other.user.uid,
      action: 'lookup_identity',
      anonymous_id: anonymousId,
      email: me.user.email,
      reason: 'report review',
      created_at: now,
    })
    .execute();
  // A ban of an address he once used (kept by its hash, its address erased with him).
  await db
    .insertInto('banned_emails')
    .values({
      email_hash: randomUUID(),
      email: me.user.email,
      banned_at: now,
      banned_by: other.user.uid,
      reason: 'test',
      associated_anonymous_ids: JSON.stringify([anonymousId ?? 'x', 'someone-else']),
      is_permanent: true,
      expires_at: null,
    })
    .execute();
  return { me, partner, other };
}
