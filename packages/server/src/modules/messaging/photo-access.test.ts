import { randomUUID } from 'node:crypto';
import { type MessagePage, MINUTE } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { neutralImage } from '../../../test/moderation-images.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { SignedUrls } from '../../platform/media/signed-urls.ts';
import { LocalDiskStorage, type Storage } from '../../platform/storage.ts';
import { CHAT_PHOTO_PATH } from './photos.ts';
import { markMessagePhotoSensitive } from './repo.ts';

type Member = Awaited<ReturnType<typeof signUpMember>>;

/** A chat photo reaches the two members of its conversation only, on URLs signed for them that expire. */
describe.each(DB_KINDS)('chat photo access on %s', (kind) => {
  const t = useTestApp(kind, { env: { MODERATION_ENABLED: 'false' } });
  const call = (m: Member, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers: m.headers, ...(payload ? { payload } : {}) });
  const fetchUrl = (url: string) => t().app.inject({ method: 'GET', url });

  /** A and B matched, A sent B a photo; C is a stranger. */
  async function world() {
    const [a, b, c] = [
      await signUpMember(t().app, t().db),
      await signUpMember(t().app, t().db),
      await signUpMember(t().app, t().db),
    ];
    const choose = (from: Member, to: Member) =>
      call(from, 'POST', '/selections', { targetId: to.user.uid, action: 'fuck', clientId: randomUUID() });
    await choose(a, b);
    const conversationId = (await choose(b, a)).json().match.conversationId as string;
    const form = multipartFile(await neutralImage(7));
    const up = await t().app.inject({
      method: 'POST',
      url: '/api/v1/messages/photos',
      headers: { ...a.headers, ...form.headers },
      payload: form.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const photoId = up.json().id as string;
    const sent = await call(a, 'POST', `/conversations/${conversationId}/messages`, {
      clientId: randomUUID(),
      type: 'photo',
      photoId,
      content: '',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const photoOf = async (m: Member) => {
      const page = (await call(m, 'GET', `/conversations/${conversationId}/messages`)).json() as MessagePage;
      const msg = page.messages.find((x) => x.metadata.photo?.id === photoId)!;
      return { messageId: msg.id, ...msg.metadata.photo! };
    };
    return { a, b, c, conversationId, photoId, photoOf, uploadUrl: up.json().url as string };
  }

  it('serves the photo to both members on their signed URLs, privately cached, naming neither', async () => {
    const { a, b, photoId, photoOf, uploadUrl } = await world();
    for (const url of [uploadUrl, (await photoOf(a)).url!, (await photoOf(b)).url!]) {
      expect(url.startsWith(`${CHAT_PHOTO_PATH}${photoId}?`)).toBe(true);
      expect(url).not.toContain(a.user.uid);
      expect(url).not.toContain(b.user.uid);
      const res = await fetchUrl(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
      expect(res.rawPayload.subarray(8, 12).toString()).toBe('WEBP');
    }
    // The stored file is not under the public /files/ tree, and the old public path is gone.
    const row = await t()
      .db.selectFrom('message_photos')
      .select('storage_key')
      .where('id', '=', photoId)
      .executeTakeFirstOrThrow();
    expect(row.storage_key).toBe(`chat/${photoId}.webp`);
    expect((await fetchUrl(`/files/${row.storage_key}`)).statusCode).toBe(404);
  });

  it('refuses a third user, an altered URL and an expired one', async () => {
    const { b, c, photoId, photoOf } = await world();
    // The stranger cannot ask for a URL, and one signed for him (with the server's own key) is refused.
    expect((await call(c, 'GET', `/messages/${(await photoOf(b)).messageId}/photo-url`)).statusCode).toBe(404);
    const forStranger = new SignedUrls(t().config.tokenSecret, t().clock).url(`${CHAT_PHOTO_PATH}${photoId}`, c.user.uid);
    expect((await fetchUrl(forStranger)).statusCode).toBe(403);
    const good = (await photoOf(b)).url!;
    expect((await fetchUrl(good.replace(/s=./, 's=A'))).statusCode).toBe(403);
    expect((await fetchUrl(`${CHAT_PHOTO_PATH}${photoId}`)).statusCode).toBe(403);
    expect((await fetchUrl(good.replace(/e=\d+/, (m) => `e=${Number(m.slice(2)) + 300}`))).statusCode).toBe(403);
    t().clock.advance(16 * MINUTE);
    const expired = await fetchUrl(good);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error).toBe('link_expired');
    // The next read brings a fresh URL that works.
    expect((await fetchUrl((await photoOf(b)).url!)).statusCode).toBe(200);
  });

  it('answers the old public path (naming the sender) like a missing file', async () => {
    const { a, photoId } = await world();
    // A photo stored before: its file under photos/messages/<sender>/, which /files/ used to serve to anyone.
    const old = `photos/messages/${a.user.uid}/${photoId}.webp`;
    const storage: Storage = new LocalDiskStorage(t().config.filesDir);
    await storage.put(old, await neutralImage(8), 'image/webp');
    expect((await fetchUrl(`/files/${old}`)).statusCode).toBe(404);
  });

  it("withholds the URL of a photo the receiver's filtering blurs or hides; his tap fetches one", async () => {
    const { a, b, photoId, photoOf } = await world();
    expect((await photoOf(b)).url).not.toBeNull();
    await markMessagePhotoSensitive(t().db, photoId);
    // His default filtering blurs a sensitive photo: no URL, a flag instead.
    const withheld = await photoOf(b);
    expect(withheld).toMatchObject({ url: null, withheld: true, sensitive: true });
    // The sender still gets his own.
    expect((await photoOf(a)).url).not.toBeNull();
    // He chooses to see it.
    const revealed = await call(b, 'GET', `/messages/${withheld.messageId}/photo-url`);
    expect(revealed.statusCode).toBe(200);
    expect((await fetchUrl(revealed.json().url)).statusCode).toBe(200);
    // With filtering off, it comes with its URL again.
    const off = await call(b, 'PATCH', '/me/settings', { safety: { contentFiltering: { enabled: false } } });
    expect(off.statusCode, off.body).toBe(200);
    expect((await photoOf(b)).url).not.toBeNull();
  });
});
