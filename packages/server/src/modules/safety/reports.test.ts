import { randomUUID } from 'node:crypto';
import {
  DAY,
  ReportMessages,
  type SafetyFlag,
  type StaffReportsPage,
  SUSPICIOUS_REPORTERS,
  USER_REPORT_LIMIT,
  type UserReport,
} from '@fmk/core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makeStaff, signUpMember, staffSignIn } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { reportFileKeys } from './service.ts';

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH';
type Member = Awaited<ReturnType<typeof signUpMember>>;

/** A screenshot as a phone saves it: a JPEG with camera and GPS EXIF. */
const screenshotJpeg = () =>
  sharp({ create: { width: 390, height: 844, channels: 3, background: '#f4f4f5' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Spy 3000' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '37/1 46/1 30/1', GPSLongitudeRef: 'W', GPSLongitude: '122/1 25/1 10/1' },
    })
    .toBuffer();

const REPORT = { reason: 'He keeps insulting me', category: 'harassment', description: 'Started after I said no.' };

describe.each(DB_KINDS)('reports on %s', (kind) => {
  const t = useTestApp(kind);
  const call = (method: Method, url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const upload = async (headers: Headers, data: Buffer) => {
    const form = multipartFile(data);
    return t().app.inject({
      method: 'POST',
      url: '/api/v1/reports/screenshots',
      headers: { ...headers, ...form.headers },
      payload: form.payload,
    });
  };
  const member = () => signUpMember(t().app, t().db);
  const countRows = async (table: 'user_reports' | 'report_messages' | 'safety_flags') =>
    Number(
      (
        await t()
          .db.selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Moves a reporter's reports `ms` into the past. */
  const backdate = async (reporterId: string, ms: number) => {
    const at = new Date(t().clock.now().getTime() - ms);
    await t().db.updateTable('user_reports').set({ created_at: at }).where('reporter_id', '=', reporterId).execute();
  };
  async function staff(role: 'owner' | 'admin' | 'moderator' = 'moderator') {
    const s = await member();
    await makeStaff(t().db, s.user.uid, role);
    Object.assign(s.headers, await staffSignIn(t().app, s.user.email, t().clock.now()));
    return s;
  }
  /** Two men who chose each other, and the messages they sent: [from a, from b]. */
  async function chatting(): Promise<{ a: Member; b: Member; conversationId: string; fromA: string; fromB: string }> {
    const [a, b] = [await member(), await member()];
    const choose = (from: Member, to: Member) =>
      call('POST', '/selections', from.headers, { targetId: to.user.uid, action: 'fuck', clientId: randomUUID() });
    await choose(a, b);
    const conversationId = (await choose(b, a)).json().match.conversationId as string;
    const send = async (u: Member, content: string) => {
      const res = await call('POST', `/conversations/${conversationId}/messages`, u.headers, { clientId: randomUUID(), content });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const fromA = await send(a, 'hi');
    const fromB = await send(b, 'you are worthless');
    return { a, b, conversationId, fromA, fromB };
  }

  it('files a report with a private screenshot and the messages copied in, kept after a block deletes the chat', async () => {
    const { a, b, conversationId, fromA, fromB } = await chatting();
    const shot = await upload(a.headers, await screenshotJpeg());
    expect(shot.statusCode, shot.body).toBe(201);
    const shotId = shot.json().id as string;

    const res = await call('POST', `/users/${b.user.uid}/report`, a.headers, {
      ...REPORT,
      screenshotIds: [shotId],
      messageIds: [fromB, fromA],
      block: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const report = res.json() as UserReport;
    expect(report).toMatchObject({
      reportedUserId: b.user.uid,
      ...REPORT,
      status: 'pending',
      blocked: true,
      screenshots: [{ id: shotId, width: 390, height: 844 }],
    });
    expect(report.messages.map((m) => [m.content, m.fromReported])).toEqual([
      ['hi', false],
      ['you are worthless', true],
    ]);

    // 'Also block him' blocked him: the conversation and its messages are gone, the evidence is not.
    const blocked = (await call('GET', '/me/blocked', a.headers)).json() as { uid: string }[];
    expect(blocked.map((u) => u.uid)).toEqual([b.user.uid]);
    expect((await call('GET', `/conversations/${conversationId}`, a.headers)).statusCode).toBe(404);
    expect(await t().db.selectFrom('messages').select('id').where('id', 'in', [fromA, fromB]).execute()).toEqual([]);
    const mine = (await call('GET', '/me/reports', a.headers)).json() as UserReport[];
    expect(mine).toHaveLength(1);
    expect(mine[0]!.messages.map((m) => m.content)).toEqual(['hi', 'you are worthless']);

    // The screenshot: re-encoded without metadata, for the reporter and staff only, never a public file.
    const bytes = await call('GET', `/reports/screenshots/${shotId}`, a.headers);
    expect(bytes.statusCode).toBe(200);
    const meta = await sharp(bytes.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect((await call('GET', `/reports/screenshots/${shotId}`, b.headers)).statusCode).toBe(404);
    expect((await call('GET', `/reports/screenshots/${shotId}`, (await staff()).headers)).statusCode).toBe(200);
    const [key] = await reportFileKeys(t().db, a.user.uid);
    expect(key!.startsWith('photos/')).toBe(false);
    expect((await t().app.inject({ method: 'GET', url: `/files/${key}` })).statusCode).toBe(404);
    // He never learns he was reported.
    expect(((await call('GET', '/me/reports', b.headers)).json() as UserReport[]).length).toBe(0);
  });

  it('refuses bad input with a clear message and stores nothing', async () => {
    const { a, b, fromB } = await chatting();
    const outsider = await chatting();
    const theirShot = (await upload(outsider.a.headers, await screenshotJpeg())).json().id as string;
    const before = await countRows('user_reports');
    const cases: [object, string][] = [
      [{ ...REPORT, reason: 'x' }, ReportMessages.reasonMissing],
      [{ ...REPORT, reason: 'x'.repeat(201) }, ReportMessages.reasonTooLong],
      [{ ...REPORT, category: 'rude' }, ReportMessages.chooseCategory],
      [{ ...REPORT, description: 'x'.repeat(2001) }, ReportMessages.descriptionTooLong],
      [{ ...REPORT, screenshotIds: ['1', '2', '3', '4'] }, ReportMessages.tooManyScreenshots],
      [{ ...REPORT, screenshotIds: [theirShot] }, ReportMessages.screenshotNotFound],
      [{ ...REPORT, screenshotIds: [randomUUID()] }, ReportMessages.screenshotNotFound],
      // A message of a conversation he is not in, or not with this man.
      [{ ...REPORT, messageIds: [outsider.fromB] }, ReportMessages.messageNotFound],
      [{ ...REPORT, messageIds: [fromB, randomUUID()] }, ReportMessages.messageNotFound],
    ];
    for (const [body, message] of cases) {
      const res = await call('POST', `/users/${b.user.uid}/report`, a.headers, body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const self = await call('POST', `/users/${a.user.uid}/report`, a.headers, REPORT);
    expect([self.statusCode, self.json().message]).toEqual([400, ReportMessages.cannotReportSelf]);
    const unknown = await call('POST', `/users/${randomUUID()}/report`, a.headers, { ...REPORT, block: true });
    expect(unknown.statusCode).toBe(404);
    expect((await call('POST', `/users/${b.user.uid}/report`, {}, REPORT)).statusCode).toBe(401);
    expect((await upload(a.headers, Buffer.from('not an image at all'))).statusCode).toBe(400);
    expect(await countRows('user_reports')).toBe(before);
    // The refused 'report and block' blocked nobody; the unattached screenshot is still free to use.
    expect((await call('GET', '/me/blocked', a.headers)).json()).toEqual([]);
    const ok = await call('POST', `/users/${b.user.uid}/report`, outsider.a.headers, { ...REPORT, screenshotIds: [theirShot] });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it(`stops a member at ${USER_REPORT_LIMIT.max} reports a day with a clear 429`, async () => {
    const me = await member();
    const targets = await Promise.all(Array.from({ length: 3 }, member));
    for (let i = 0; i < USER_REPORT_LIMIT.max; i++) {
      const res = await call('POST', `/users/${targets[i % 3]!.user.uid}/report`, me.headers, REPORT);
      expect(res.statusCode, res.body).toBe(201);
    }
    const before = await countRows('user_reports');
    const refused = await call('POST', `/users/${targets[0]!.user.uid}/report`, me.headers, REPORT);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(ReportMessages.tooManyReports);
    expect(await countRows('user_reports')).toBe(before);
    // A day later he may report again (his reports moved back a day: sessions outlive no clock jump).
    await backdate(me.user.uid, DAY + 1000);
    expect((await call('POST', `/users/${targets[0]!.user.uid}/report`, me.headers, REPORT)).statusCode).toBe(201);
  });

  it(`raises one item for staff when ${SUSPICIOUS_REPORTERS} different members report a man within 7 days`, async () => {
    const target = await member();
    const reporters = await Promise.all(Array.from({ length: SUSPICIOUS_REPORTERS + 1 }, member));
    const moderator = await staff();
    const flagsOf = async () =>
      ((await call('GET', '/admin/safety/flags', moderator.headers)).json() as SafetyFlag[]).filter(
        (f) => f.userId === target.user.uid,
      );
    const report = (r: Member) => call('POST', `/users/${target.user.uid}/report`, r.headers, REPORT);

    // An old report falls out of the week; one reporter counts once however often he reports.
    await report(reporters[0]!);
    await backdate(reporters[0]!.user.uid, 8 * DAY);
    for (const r of reporters.slice(1, SUSPICIOUS_REPORTERS)) {
      await report(r);
      await report(r);
    }
    expect(await flagsOf()).toEqual([]);
    await report(reporters[SUSPICIOUS_REPORTERS]!);
    expect(await flagsOf()).toMatchObject([{ kind: 'suspicious_behavior', reporters: SUSPICIOUS_REPORTERS, status: 'open' }]);
    // Further reports while it is open add no second item.
    await report(reporters[0]!);
    expect(await flagsOf()).toHaveLength(1);
  });

  it('lets staff, and only staff, review reports pending → reviewed → actioned | dismissed', async () => {
    const { a, b } = await chatting();
    const filed = (await call('POST', `/users/${b.user.uid}/report`, a.headers, REPORT)).json() as UserReport;
    const moderator = await staff('moderator');

    for (const u of [a, b]) {
      expect((await call('GET', '/admin/reports', u.headers)).statusCode).toBe(403);
      expect((await call('PATCH', `/admin/reports/${filed.id}`, u.headers, { status: 'dismissed' })).statusCode).toBe(403);
      expect((await call('GET', '/admin/safety/flags', u.headers)).statusCode).toBe(403);
    }
    const queue = ((await call('GET', '/admin/reports?status=pending', moderator.headers)).json() as StaffReportsPage).rows;
    expect(queue.find((r) => r.id === filed.id)).toMatchObject({ reporterId: a.user.uid, reportedUserId: b.user.uid });

    const move = (status: string) => call('PATCH', `/admin/reports/${filed.id}`, moderator.headers, { status });
    expect((await move('pending')).statusCode).toBe(409);
    expect((await move('reviewed')).json()).toMatchObject({ status: 'reviewed' });
    expect((await move('actioned')).json()).toMatchObject({ status: 'actioned' });
    const final = await move('dismissed');
    expect([final.statusCode, final.json().message]).toEqual([409, ReportMessages.badTransition]);
    expect((await move('closed')).statusCode).toBe(400);
    expect((await call('PATCH', `/admin/reports/${randomUUID()}`, moderator.headers, { status: 'reviewed' })).statusCode).toBe(
      404,
    );
    const mine = (await call('GET', '/me/reports', a.headers)).json() as UserReport[];
    expect(mine.map((r) => r.status)).toEqual(['actioned']);
  });

  it('lets a staff member with only reports.view read the queue, the evidence and the flags, and refuses him a move', async () => {
    const { a, b, fromB } = await chatting();
    const filed = (
      await call('POST', `/users/${b.user.uid}/report`, a.headers, { ...REPORT, messageIds: [fromB] })
    ).json() as UserReport;
    const viewer = await member();
    await makeStaff(t().db, viewer.user.uid, 'moderator');
    // An explicit list on his record overrides the role's defaults: view only.
    await t()
      .db.updateTable('admin_users')
      .set({ permissions: JSON.stringify(['reports.view']) })
      .where('user_id', '=', viewer.user.uid)
      .execute();
    const headers = await staffSignIn(t().app, viewer.user.email, t().clock.now());

    const queue = await call('GET', '/admin/reports', headers);
    expect(queue.statusCode, queue.body).toBe(200);
    expect((queue.json() as StaffReportsPage).rows.map((r) => r.id)).toContain(filed.id);
    expect((await call('GET', '/admin/messages', headers)).statusCode).toBe(200);
    expect((await call('GET', '/admin/safety/flags', headers)).statusCode).toBe(200);

    const move = await call('PATCH', `/admin/reports/${filed.id}`, headers, { status: 'reviewed' });
    expect(move.statusCode).toBe(403);
    const after = (await call('GET', '/admin/reports', headers)).json() as StaffReportsPage;
    expect(after.rows.find((r) => r.id === filed.id)?.status).toBe('pending');
  });
});
