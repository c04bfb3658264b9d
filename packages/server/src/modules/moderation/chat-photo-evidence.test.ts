import { randomUUID } from 'node:crypto';
import { type EvidencePage, ModerationMessages, type ModerationPage, ReportMessages } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { makeStaff, signUpMember, staffSignIn } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { neutralImage } from '../../../test/moderation-images.ts';
import { multipartFile } from '../../../test/multipart.ts';

type Headers = Record<string, string>;
type Member = Awaited<ReturnType<typeof signUpMember>>;

// Chat photos are private to their conversation (served on URLs signed for its two members). Staff
// see one only when a report holds it as evidence, through staff-only routes: the moderation item's
// photo and the reported message's photo. Never another conversation's photo, never at /files/.
describe.each(DB_KINDS)('reported chat photos for staff on %s', (kind) => {
  const t = useTestApp(kind);
  const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const member = () => signUpMember(t().app, t().db);

  /** a sends b two photos; returns their ids and the messages carrying them. */
  async function twoPhotos(a: Member, b: Member) {
    const choose = (from: Member, to: Member) =>
      call('POST', '/selections', from.headers, { targetId: to.user.uid, action: 'fuck', clientId: randomUUID() });
    await choose(a, b);
    const conversationId = (await choose(b, a)).json().match.conversationId as string;
    const sent: { photoId: string; messageId: string }[] = [];
    for (const seed of [11, 12]) {
      const form = multipartFile(await neutralImage(seed));
      const up = await t().app.inject({
        method: 'POST',
        url: '/api/v1/messages/photos',
        headers: { ...a.headers, ...form.headers },
        payload: form.payload,
      });
      expect(up.statusCode, up.body).toBe(201);
      const photoId = (up.json() as { id: string }).id;
      const msg = await call('POST', `/conversations/${conversationId}/messages`, a.headers, {
        clientId: randomUUID(),
        type: 'photo',
        photoId,
        content: '',
      });
      expect(msg.statusCode, msg.body).toBe(201);
      sent.push({ photoId, messageId: (msg.json() as { id: string }).id });
    }
    await t().app.moderation.settle();
    return sent;
  }

  async function moderator() {
    const s = await member();
    await makeStaff(t().db, s.user.uid, 'moderator');
    return { ...s, headers: await staffSignIn(t().app, s.user.email, t().clock.now()) };
  }

  it('shows staff a reported chat photo through the staff routes, and refuses every other chat photo', async () => {
    const [a, b] = [await member(), await member()];
    const [reported, other] = await twoPhotos(a, b);
    // b reports a with the first photo as evidence and blocks him: the conversation and its messages are deleted.
    const filed = await call('POST', `/users/${a.user.uid}/report`, b.headers, {
      reason: 'Sent me photos I did not ask for',
      category: 'inappropriate_content',
      messageIds: [reported!.messageId],
      block: true,
    });
    expect(filed.statusCode, filed.body).toBe(201);
    const mod = await moderator();

    // The queue: neither chat photo has a public address; only the reported one has the staff path.
    const items = ((await call('GET', '/admin/moderation/items?status=approved', mod.headers)).json() as ModerationPage).rows;
    const itemOf = (photoId: string) => items.find((i) => i.contentId === photoId)!;
    expect(itemOf(reported!.photoId)).toMatchObject({
      contentType: 'chat_photo',
      url: null,
      reported: true,
      photoPath: `/admin/moderation/items/${itemOf(reported!.photoId).id}/photo`,
    });
    expect(itemOf(other!.photoId)).toMatchObject({ contentType: 'chat_photo', url: null, reported: false, photoPath: null });

    const photo = await call('GET', itemOf(reported!.photoId).photoPath!, mod.headers);
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/webp');
    expect(photo.headers['cache-control']).toBe('private, no-store');
    expect(photo.rawPayload.subarray(8, 12).toString()).toBe('WEBP');
    const refused = await call('GET', `/admin/moderation/items/${itemOf(other!.photoId).id}/photo`, mod.headers);
    expect([refused.statusCode, refused.json().message]).toEqual([403, ReportMessages.photoNotReported]);
    const missing = await call('GET', `/admin/moderation/items/${randomUUID()}/photo`, mod.headers);
    expect([missing.statusCode, missing.json().message]).toEqual([404, ModerationMessages.itemNotFound]);

    // The reported message keeps its photo after the block deleted the message itself.
    const evidence = (await call('GET', '/admin/messages', mod.headers)).json() as EvidencePage;
    expect(evidence.rows).toEqual([expect.objectContaining({ type: 'photo', photoId: reported!.photoId })]);
    expect((await call('GET', `/admin/messages/photos/${reported!.photoId}`, mod.headers)).statusCode).toBe(200);
    expect((await call('GET', `/admin/messages/photos/${other!.photoId}`, mod.headers)).statusCode).toBe(403);
    expect((await call('GET', `/admin/messages/photos/${randomUUID()}`, mod.headers)).statusCode).toBe(404);

    // Members never reach the staff routes, and the old public path serves no chat photo.
    for (const m of [a, b]) {
      expect((await call('GET', itemOf(reported!.photoId).photoPath!, m.headers)).statusCode).toBe(403);
      expect((await call('GET', `/admin/messages/photos/${reported!.photoId}`, m.headers)).statusCode).toBe(403);
    }
    const key = `chat/${reported!.photoId}.webp`;
    expect((await t().app.inject({ method: 'GET', url: `/files/${key}` })).statusCode).toBe(404);
  });

  it('lets a staff member with content.view only open the queue and a reported photo, not decide', async () => {
    const [a, b] = [await member(), await member()];
    const [reported] = await twoPhotos(a, b);
    await call('POST', `/users/${a.user.uid}/report`, b.headers, {
      reason: 'Unwanted photo',
      category: 'inappropriate_content',
      messageIds: [reported!.messageId],
    });
    const viewer = await member();
    await makeStaff(t().db, viewer.user.uid, 'moderator');
    await t()
      .db.updateTable('admin_users')
      .set({ permissions: JSON.stringify(['content.view']) })
      .where('user_id', '=', viewer.user.uid)
      .execute();
    const headers = await staffSignIn(t().app, viewer.user.email, t().clock.now());
    const list = await call('GET', '/admin/moderation/items?status=approved', headers);
    expect(list.statusCode, list.body).toBe(200);
    const item = (list.json() as ModerationPage).rows.find((i) => i.contentId === reported!.photoId)!;
    expect((await call('GET', item.photoPath!, headers)).statusCode).toBe(200);
    // reports.view is not his: the evidence route refuses him.
    expect((await call('GET', `/admin/messages/photos/${reported!.photoId}`, headers)).statusCode).toBe(403);
  });
});
