import { readdirSync } from 'node:fs';
import path from 'node:path';
import {
  FEEDBACK_LIMIT,
  type Feedback,
  SCREENSHOT_LIMIT,
  type StaffFeedback,
  SUPPORT_MESSAGE_LIMIT,
  SupportMessages,
  type SupportThread,
  type SupportThreadDetail,
} from '@fmk/core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makeStaff, setTier, signUp, staffSignIn } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { openLive } from '../../../test/live.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { supportFileKeys } from './service.ts';

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH';

/** A screenshot as a phone saves it: a JPEG with camera and GPS EXIF. */
const screenshotJpeg = () =>
  sharp({ create: { width: 390, height: 844, channels: 3, background: '#f4f4f5' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Spy 3000' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '37/1 46/1 30/1', GPSLongitudeRef: 'W', GPSLongitude: '122/1 25/1 10/1' },
    })
    .toBuffer();

const BUG = { kind: 'bug', category: 'messages', text: 'The send button does nothing on my phone.', appVersion: '1.4.0' };

describe.each(DB_KINDS)('support on %s', (kind) => {
  const t = useTestApp(kind);
  const call = (method: Method, url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const upload = async (headers: Headers, data: Buffer) => {
    const form = multipartFile(data);
    return t().app.inject({
      method: 'POST',
      url: '/api/v1/support/screenshots',
      headers: { ...headers, ...form.headers },
      payload: form.payload,
    });
  };
  const countRows = async (table: 'feedback_reports' | 'support_threads' | 'support_messages') =>
    Number(
      (
        await t()
          .db.selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  async function staff(role: 'owner' | 'admin' | 'moderator' = 'moderator') {
    const s = await signUp(t().app);
    await makeStaff(t().db, s.user.uid, role);
    Object.assign(s.headers, await staffSignIn(t().app, s.user.email, t().clock.now()));
    return s;
  }

  describe('bug reports and feedback', () => {
    it('files a report with a screenshot re-encoded without metadata, the browser read from the request', async () => {
      const me = await signUp(t().app);
      const shot = await upload(me.headers, await screenshotJpeg());
      expect(shot.statusCode).toBe(201);
      const { id } = shot.json() as { id: string; width: number; height: number };
      expect(shot.json()).toMatchObject({ width: 390, height: 844 });

      const res = await call(
        'POST',
        '/support/reports',
        { ...me.headers, 'user-agent': 'Mozilla/5.0 (iPhone) Safari/604.1' },
        { ...BUG, screenshotId: id },
      );
      expect(res.statusCode).toBe(201);
      const report = res.json() as Feedback;
      expect(report).toMatchObject({
        kind: 'bug',
        category: 'messages',
        text: BUG.text,
        status: 'new',
        appVersion: '1.4.0',
        browser: 'Mozilla/5.0 (iPhone) Safari/604.1',
        screenshot: { id, width: 390, height: 844 },
      });

      const bytes = await call('GET', `/support/screenshots/${id}`, me.headers);
      expect(bytes.statusCode).toBe(200);
      expect(bytes.headers['content-type']).toBe('image/webp');
      const meta = await sharp(bytes.rawPayload).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.exif).toBeUndefined();
      // Not a public file: the files route never serves it.
      const row = await t()
        .db.selectFrom('support_screenshots')
        .select('storage_key')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.storage_key.startsWith('photos/')).toBe(false);
      expect((await t().app.inject({ method: 'GET', url: `/files/${row.storage_key}` })).statusCode).toBe(404);

      const mine = (await call('GET', '/support/reports', me.headers)).json() as Feedback[];
      expect(mine.map((r) => r.id)).toEqual([report.id]);
    });

    it('refuses bad input with a clear message and stores nothing', async () => {
      const me = await signUp(t().app);
      const before = await countRows('feedback_reports');
      const cases: [object, string][] = [
        [{ ...BUG, text: 'short' }, SupportMessages.textTooShort],
        [{ ...BUG, text: 'x'.repeat(4001) }, SupportMessages.textTooLong],
        [{ ...BUG, kind: 'rant' }, SupportMessages.chooseKind],
        [{ ...BUG, category: 'nope' }, SupportMessages.chooseCategory],
        [{ ...BUG, screenshotId: 'not-an-id' }, SupportMessages.screenshotNotFound],
        [{ ...BUG, screenshotId: crypto.randomUUID() }, SupportMessages.screenshotNotFound],
      ];
      for (const [body, message] of cases) {
        const res = await call('POST', '/support/reports', me.headers, body);
        expect(res.statusCode, message).toBe(400);
        expect(res.json().message).toBe(message);
      }
      const notImage = await upload(me.headers, Buffer.from('not an image at all'));
      expect(notImage.statusCode).toBe(400);
      expect(await countRows('feedback_reports')).toBe(before);
      // The database holds the same list, whatever writes to it.
      const row = { id: 'x', user_id: me.user.uid, kind: 'bug' as const, text: 'x', app_version: '', browser: '' };
      const at = { created_at: new Date(), updated_at: new Date() };
      await expect(
        t()
          .db.insertInto('feedback_reports')
          .values({ ...row, ...at, category: 'nope' })
          .execute(),
      ).rejects.toThrow();
    });

    it("never shows or attaches another member's report or screenshot", async () => {
      const a = await signUp(t().app);
      const b = await signUp(t().app);
      const { id } = (await upload(a.headers, await screenshotJpeg())).json() as { id: string };
      await call('POST', '/support/reports', a.headers, BUG);
      expect((await call('GET', '/support/reports', b.headers)).json()).toEqual([]);
      expect((await call('GET', `/support/screenshots/${id}`, b.headers)).statusCode).toBe(404);
      const stolen = await call('POST', '/support/reports', b.headers, { ...BUG, screenshotId: id });
      expect(stolen.statusCode).toBe(400);
      expect(stolen.json().message).toBe(SupportMessages.screenshotNotFound);
      // Staff may read it, for the admin area's report screen.
      const s = await staff();
      expect((await call('GET', `/support/screenshots/${id}`, s.headers)).statusCode).toBe(200);
    });

    it('attaches a screenshot to one report only', async () => {
      const me = await signUp(t().app);
      const { id } = (await upload(me.headers, await screenshotJpeg())).json() as { id: string };
      expect((await call('POST', '/support/reports', me.headers, { ...BUG, screenshotId: id })).statusCode).toBe(201);
      const again = await call('POST', '/support/reports', me.headers, { ...BUG, screenshotId: id });
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe(SupportMessages.screenshotUsed);
    });

    it('takes 10 reports a day, then 429 with a clear message; a day later more', async () => {
      const me = await signUp(t().app);
      for (let i = 0; i < FEEDBACK_LIMIT.max; i++) {
        expect((await call('POST', '/support/reports', me.headers, { ...BUG, kind: 'feedback' })).statusCode).toBe(201);
      }
      const limited = await call('POST', '/support/reports', me.headers, BUG);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ error: 'rate_limited', message: SupportMessages.tooManyReports });
      expect(((await call('GET', '/support/reports', me.headers)).json() as Feedback[]).length).toBe(FEEDBACK_LIMIT.max);
      // A day later (moving the reports back, since a day's wait would also end the session).
      await t()
        .db.updateTable('feedback_reports')
        .set({ created_at: new Date(t().clock.now().getTime() - FEEDBACK_LIMIT.windowMs - 1000) })
        .where('user_id', '=', me.user.uid)
        .execute();
      expect((await call('POST', '/support/reports', me.headers, BUG)).statusCode).toBe(201);
    });

    it('takes 20 screenshots a day, and 50 messages a day to support', async () => {
      const me = await signUp(t().app);
      const tiny = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
        .png()
        .toBuffer();
      for (let i = 0; i < SCREENSHOT_LIMIT.max; i++) expect((await upload(me.headers, tiny)).statusCode).toBe(201);
      const shots = await upload(me.headers, tiny);
      expect(shots.statusCode).toBe(429);
      expect(shots.json().message).toBe(SupportMessages.tooManyScreenshots);
      // The refused upload left no file behind: the files on disk are the rows' files.
      const keys = await supportFileKeys(t().db, me.user.uid);
      expect(keys).toHaveLength(SCREENSHOT_LIMIT.max);
      const onDisk = readdirSync(path.join(t().config.filesDir, 'support', me.user.uid)).map(
        (f) => `support/${me.user.uid}/${f}`,
      );
      expect(onDisk.sort()).toEqual([...keys].sort());

      const thread = (
        await call('POST', '/support/threads', me.headers, { subject: 'Hi', text: 'First' })
      ).json() as SupportThreadDetail;
      for (let i = 1; i < SUPPORT_MESSAGE_LIMIT.max; i++) {
        expect((await call('POST', `/support/threads/${thread.id}/messages`, me.headers, { text: `more ${i}` })).statusCode).toBe(
          201,
        );
      }
      const limited = await call('POST', `/support/threads/${thread.id}/messages`, me.headers, { text: 'one too many' });
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toBe(SupportMessages.tooManyMessages);
    });

    it('lets staff list reports and change their status, which the member sees; members are refused', async () => {
      const me = await signUp(t().app);
      const report = (await call('POST', '/support/reports', me.headers, BUG)).json() as Feedback;
      const member = await signUp(t().app);
      for (const [method, url, body] of [
        ['GET', '/admin/support/reports'],
        ['PATCH', `/admin/support/reports/${report.id}`, { status: 'resolved' }],
      ] as [Method, string, object?][]) {
        const res = await call(method, url, member.headers, body);
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toEqual({ error: 'admin_required', message: 'Admin access required' });
        expect((await call(method, url, {}, body)).statusCode).toBe(401);
      }

      const s = await staff();
      const list = ((await call('GET', '/admin/support/reports?status=new', s.headers)).json() as { rows: StaffFeedback[] }).rows;
      const listed = list.find((r) => r.id === report.id)!;
      expect(listed.member).toMatchObject({ uid: me.user.uid, anonymousId: me.user.anonymousId });
      expect(JSON.stringify(listed)).not.toContain(me.user.email);

      const changed = await call('PATCH', `/admin/support/reports/${report.id}`, s.headers, { status: 'resolved' });
      expect(changed.statusCode).toBe(200);
      expect(((await call('GET', '/support/reports', me.headers)).json() as Feedback[])[0]!.status).toBe('resolved');
      expect((await call('PATCH', `/admin/support/reports/${report.id}`, s.headers, { status: 'done' })).statusCode).toBe(400);
      expect((await call('PATCH', '/admin/support/reports/nope', s.headers, { status: 'closed' })).statusCode).toBe(404);
    });
  });

  describe('support threads', () => {
    const open = (h: Headers, subject = 'I was charged twice', text = 'Hello, can you help?') =>
      call('POST', '/support/threads', h, { subject, text });

    it('lets a member write, staff answer, and shows the answer as unread until he opens it', async () => {
      const me = await signUp(t().app);
      const created = await open(me.headers);
      expect(created.statusCode).toBe(201);
      const thread = created.json() as SupportThreadDetail;
      expect(thread).toMatchObject({ subject: 'I was charged twice', status: 'open', unread: 0, priority: false });
      expect(thread.messages.map((m) => [m.from, m.text])).toEqual([['member', 'Hello, can you help?']]);

      const s = await staff();
      const queue = (
        (await call('GET', '/admin/support/threads', s.headers)).json() as {
          rows: (SupportThread & { member: { uid: string } })[];
        }
      ).rows;
      expect(queue.find((q) => q.id === thread.id)).toMatchObject({ unread: 1, member: { uid: me.user.uid } });
      t().clock.advance(60_000);
      const live = await openLive(t().app, me.token);
      const answered = await call('POST', `/admin/support/threads/${thread.id}/messages`, s.headers, {
        text: 'Refunded, sorry!',
      });
      expect(answered.statusCode).toBe(201);
      expect(answered.json()).toMatchObject({ status: 'answered', unread: 0 });
      // His open tabs hear of it at once.
      expect(await live.next('support')).toEqual({ type: 'support', threadId: thread.id, subject: 'I was charged twice' });
      await live.close();

      const mine = (await call('GET', '/support/threads', me.headers)).json() as SupportThread[];
      expect(mine).toEqual([expect.objectContaining({ id: thread.id, status: 'answered', unread: 1 })]);
      const read = (await call('GET', `/support/threads/${thread.id}`, me.headers)).json() as SupportThreadDetail;
      expect(read.messages.map((m) => m.from)).toEqual(['member', 'staff']);
      expect(((await call('GET', '/support/threads', me.headers)).json() as SupportThread[])[0]!.unread).toBe(0);

      t().clock.advance(60_000);
      const reply = await call('POST', `/support/threads/${thread.id}/messages`, me.headers, { text: 'Thanks!' });
      expect(reply.statusCode).toBe(201);
      expect(reply.json()).toMatchObject({ status: 'open' });

      const closed = await call('PATCH', `/admin/support/threads/${thread.id}`, s.headers, { status: 'closed' });
      expect(closed.json()).toMatchObject({ status: 'closed' });
      const late = await call('POST', `/support/threads/${thread.id}/messages`, me.headers, { text: 'One more thing' });
      expect(late.statusCode).toBe(409);
      expect(late.json().message).toBe(SupportMessages.threadClosed);
    });

    it('lets staff who may only view reports read the queue and a thread, and refuses them an answer or a close', async () => {
      const me = await signUp(t().app);
      const thread = (await open(me.headers)).json() as SupportThreadDetail;
      const s = await staff();
      // An explicit permissions list on his staff record overrides his role's (spec section 6).
      await t()
        .db.updateTable('admin_users')
        .set({ permissions: JSON.stringify(['reports.view']) })
        .where('user_id', '=', s.user.uid)
        .execute();
      expect((await call('GET', '/admin/support/threads', s.headers)).statusCode).toBe(200);
      expect((await call('GET', `/admin/support/threads/${thread.id}`, s.headers)).statusCode).toBe(200);
      expect((await call('GET', '/admin/support/reports', s.headers)).statusCode).toBe(200);
      const answer = await call('POST', `/admin/support/threads/${thread.id}/messages`, s.headers, { text: 'Hi' });
      expect(answer.statusCode).toBe(403);
      expect((await call('PATCH', `/admin/support/threads/${thread.id}`, s.headers, { status: 'closed' })).statusCode).toBe(403);
      const mine = (await call('GET', `/support/threads/${thread.id}`, me.headers)).json() as SupportThreadDetail;
      expect(mine).toMatchObject({ status: 'open' });
      expect(mine.messages).toHaveLength(1);
    });

    it("marks Platinum members' threads priority from the server's tier, first in staff's queue", async () => {
      const free = await signUp(t().app);
      await setTier(t().db, free.user.uid, 'free');
      const plat = await signUp(t().app);
      await setTier(t().db, plat.user.uid, 'platinum');
      const a = (await open(free.headers)).json() as SupportThreadDetail;
      t().clock.advance(1000);
      // A client cannot ask for priority: unknown fields are not read.
      const c = (
        await call('POST', '/support/threads', free.headers, { subject: 'Me first', text: 'Please', priority: true })
      ).json() as SupportThreadDetail;
      const b = (await open(plat.headers)).json() as SupportThreadDetail;
      expect([a.priority, c.priority, b.priority]).toEqual([false, false, true]);
      const s = await staff('admin');
      const queue = ((await call('GET', '/admin/support/threads', s.headers)).json() as { rows: SupportThread[] }).rows;
      const ids = queue.map((q) => q.id);
      expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(c.id));
      expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    });

    it("never shows another member's thread, and refuses staff routes to members", async () => {
      const a = await signUp(t().app);
      const b = await signUp(t().app);
      const thread = (await open(a.headers)).json() as SupportThreadDetail;
      expect((await call('GET', '/support/threads', b.headers)).json()).toEqual([]);
      for (const [method, url, body] of [
        ['GET', `/support/threads/${thread.id}`],
        ['POST', `/support/threads/${thread.id}/messages`, { text: 'hijack' }],
      ] as [Method, string, object?][]) {
        const res = await call(method, url, b.headers, body);
        expect(res.statusCode, url).toBe(404);
        expect(res.json().message).toBe(SupportMessages.threadNotFound);
      }
      for (const [method, url, body] of [
        ['GET', '/admin/support/threads'],
        ['GET', `/admin/support/threads/${thread.id}`],
        ['POST', `/admin/support/threads/${thread.id}/messages`, { text: 'fake staff' }],
        ['PATCH', `/admin/support/threads/${thread.id}`, { status: 'closed' }],
      ] as [Method, string, object?][]) {
        const res = await call(method, url, b.headers, body);
        expect(res.statusCode, url).toBe(403);
        expect(res.json().message).toBe('Admin access required');
      }
      const rows = await t().db.selectFrom('support_messages').select('text').where('thread_id', '=', thread.id).execute();
      expect(rows.map((r) => r.text)).toEqual(['Hello, can you help?']);
    });

    it('refuses empty or overlong text and more than 5 new threads a day', async () => {
      const me = await signUp(t().app);
      const before = await countRows('support_threads');
      const empty = await call('POST', '/support/threads', me.headers, { subject: '  ', text: 'hi' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe(SupportMessages.subjectMissing);
      const noText = await call('POST', '/support/threads', me.headers, { subject: 'Hi', text: '' });
      expect(noText.json().message).toBe(SupportMessages.messageMissing);
      expect(await countRows('support_threads')).toBe(before);
      for (let i = 0; i < 5; i++) expect((await open(me.headers)).statusCode).toBe(201);
      const limited = await open(me.headers);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toBe(SupportMessages.tooManyThreads);
    });
  });
});
