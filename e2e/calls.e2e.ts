import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { VIDEO_CALL_UPSELL } from '@fmk/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, CASTRO, join, located, matchEachOther, NEARBY } from './flows.ts';
import { type E2E, useE2E } from './harness.ts';

mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(import.meta.dirname, 'screenshots', `${name}.png`) });
}

/** His id, as the app keeps it after sign-in. */
function uidOf(page: Page): Promise<string> {
  return page.evaluate(() => (JSON.parse(localStorage.getItem('auth_user') ?? '{}') as { uid: string }).uid);
}

/** The API from inside the page, with its stored token (what the app itself would send). */
function apiIn(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const res = await fetch(`/api/v1${url}`, {
        method,
        headers: {
          authorization: `Bearer ${localStorage.getItem('auth_token')}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, json: res.status === 204 ? null : await res.json() };
    },
    { method, url, body },
  );
}

interface RtpTotals {
  videoInBytes: number;
  framesDecoded: number;
  audioOutPackets: number;
  audioInPackets: number;
}

/** The call's getStats, summed by direction (the page keeps its connection on window.__fmkCall). */
function rtp(page: Page): Promise<RtpTotals> {
  return page.evaluate(async () => {
    const pc = (window as unknown as { __fmkCall?: { pc: RTCPeerConnection } }).__fmkCall?.pc;
    const out = { videoInBytes: 0, framesDecoded: 0, audioOutPackets: 0, audioInPackets: 0 };
    if (!pc) return out;
    (await pc.getStats()).forEach(
      (s: {
        type: string;
        kind?: string;
        bytesReceived?: number;
        framesDecoded?: number;
        packetsSent?: number;
        packetsReceived?: number;
      }) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video') {
          out.videoInBytes += s.bytesReceived ?? 0;
          out.framesDecoded += s.framesDecoded ?? 0;
        }
        if (s.type === 'outbound-rtp' && s.kind === 'audio') out.audioOutPackets += s.packetsSent ?? 0;
        if (s.type === 'inbound-rtp' && s.kind === 'audio') out.audioInPackets += s.packetsReceived ?? 0;
      },
    );
    return out;
  });
}

/** The local candidate type of the connection's selected pair ('host', 'srflx', 'relay'). */
function selectedCandidateType(page: Page): Promise<string | null> {
  return page.evaluate(async () => {
    const pc = (window as unknown as { __fmkCall?: { pc: RTCPeerConnection } }).__fmkCall?.pc;
    if (!pc) return null;
    const stats = await pc.getStats();
    let type: string | null = null;
    stats.forEach((s: { type: string; selected?: boolean; nominated?: boolean; state?: string; localCandidateId?: string }) => {
      if (s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded' && s.localCandidateId) {
        const local = stats.get(s.localCandidateId) as { candidateType?: string } | undefined;
        type = local?.candidateType ?? null;
      }
    });
    return type;
  });
}

/** Two men nearby who picked each other in the app, each in his own context; their chat's id. */
async function matchedPair(e: () => E2E, names: [string, string]) {
  const a = await e().newPage(located(CASTRO));
  const b = await e().newPage(located(NEARBY));
  await join(a.page, names[0]);
  await join(b.page, names[1]);
  await matchEachOther(a.page, names[0], b.page, names[1]);
  const conversationId = ((await apiIn(a.page, 'GET', '/conversations')).json as Array<{ id: string }>)[0]!.id;
  return { a, b, aId: await uidOf(a.page), bId: await uidOf(b.page), conversationId };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The ICE username fragment of the page's current local description: a restart changes it. */
function localUfrag(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const pc = (window as unknown as { __fmkCall?: { pc: RTCPeerConnection } }).__fmkCall?.pc;
    return /a=ice-ufrag:(\S+)/.exec(pc?.localDescription?.sdp ?? '')?.[1] ?? null;
  });
}

describe('video calls in Chromium', () => {
  const e = useE2E(
    {},
    {
      chromiumArgs: [
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        '--autoplay-policy=no-user-gesture-required',
      ],
    },
  );

  it('A calls B, B accepts, both see each other, mute stops A’s audio, hang up leaves the line; a free caller is refused', async () => {
    const { a, b, aId, bId, conversationId } = await matchedPair(e, ['Alex', 'Ben']);

    // A in the chat; B elsewhere in the app (the call rings over any screen).
    await a.page.goto(`/messages/${conversationId}`);
    await b.page.goto('/grid');
    await b.page.waitForTimeout(500);
    await a.page.getByRole('button', { name: 'Video call Ben' }).click();
    const aCall = a.page.getByTestId('call-screen');
    const bCall = b.page.getByTestId('call-screen');
    await aCall.and(a.page.locator('[data-phase="outgoing"]')).waitFor({ timeout: 10_000 });
    await a.page.getByText('Calling…').waitFor();
    await bCall.and(b.page.locator('[data-phase="incoming"]')).waitFor({ timeout: 10_000 });
    await b.page.getByText('Incoming video call').waitFor();
    await shot(a.page, 'call-outgoing');
    await shot(b.page, 'call-incoming');
    expect(await axeViolations(b.page)).toEqual([]);

    const acceptedAt = Date.now();
    await b.page.getByRole('button', { name: 'Accept' }).click();
    // First remote frame on each side, measured from B's press of Accept.
    await a.page.waitForFunction(
      () => (document.querySelector('[data-testid="remote-video"]') as HTMLVideoElement | null)?.videoWidth,
      undefined,
      { timeout: 20_000, polling: 20 },
    );
    const aFirstFrameMs = Date.now() - acceptedAt;
    await b.page.waitForFunction(
      () => (window as unknown as { __fmkCall?: { marks: { firstFrameAt?: number } } }).__fmkCall?.marks.firstFrameAt,
      undefined,
      { timeout: 20_000, polling: 20 },
    );
    const bFirstFrameMs = await b.page.evaluate(() => {
      const m = (window as unknown as { __fmkCall: { marks: { acceptedAt: number; firstFrameAt: number } } }).__fmkCall.marks;
      return Math.round(m.firstFrameAt - m.acceptedAt);
    });
    console.log(`accept → first remote frame: callee ${bFirstFrameMs} ms (in page), caller ${aFirstFrameMs} ms (wall clock)`);

    for (const p of [a.page, b.page]) await p.locator('[data-phase="connected"]').waitFor({ timeout: 15_000 });
    const before = { a: await rtp(a.page), b: await rtp(b.page) };
    await pause(1500);
    const after = { a: await rtp(a.page), b: await rtp(b.page) };
    for (const side of ['a', 'b'] as const) {
      expect(after[side].videoInBytes, `${side} inbound video bytes`).toBeGreaterThan(before[side].videoInBytes);
      expect(after[side].framesDecoded, `${side} frames decoded`).toBeGreaterThan(before[side].framesDecoded);
    }
    expect(after.a.audioOutPackets).toBeGreaterThan(before.a.audioOutPackets);
    await a.page.getByTestId('call-quality').waitFor({ timeout: 5000 });
    await shot(a.page, 'call-connected-a');
    await shot(b.page, 'call-connected-b');
    expect(await axeViolations(a.page, '[data-testid="remote-video"]')).toEqual([]);

    // Mute: A's microphone sends nothing; B stops receiving his audio.
    await a.page.getByRole('button', { name: 'Mute' }).click();
    await a.page.getByRole('button', { name: 'Unmute' }).waitFor();
    await pause(500);
    const muted1 = { a: await rtp(a.page), b: await rtp(b.page) };
    await pause(1500);
    const muted2 = { a: await rtp(a.page), b: await rtp(b.page) };
    expect(muted2.a.audioOutPackets).toBe(muted1.a.audioOutPackets);
    expect(muted2.b.audioInPackets).toBe(muted1.b.audioInPackets);
    // Video goes on while muted.
    expect(muted2.b.framesDecoded).toBeGreaterThan(muted1.b.framesDecoded);
    await shot(a.page, 'call-muted');

    // B's network changes ('online' after a switch): he asks, A offers an ICE restart, media goes on.
    const ufrag = await localUfrag(a.page);
    expect(ufrag).not.toBeNull();
    await b.page.evaluate(() => window.dispatchEvent(new Event('online')));
    await a.page.waitForFunction(
      (before) => {
        const pc = (window as unknown as { __fmkCall?: { pc: RTCPeerConnection } }).__fmkCall?.pc;
        const now = /a=ice-ufrag:(\S+)/.exec(pc?.localDescription?.sdp ?? '')?.[1];
        return now && now !== before && pc?.signalingState === 'stable';
      },
      ufrag,
      { timeout: 10_000 },
    );
    const restarted = await rtp(b.page);
    await pause(1500);
    expect((await rtp(b.page)).framesDecoded).toBeGreaterThan(restarted.framesDecoded);
    for (const p of [a.page, b.page]) await p.locator('[data-phase="connected"]').waitFor();

    await a.page.getByRole('button', { name: 'Hang up' }).click();
    await a.page.locator('[data-phase="ended"]').waitFor();
    await b.page.locator('[data-phase="ended"]').waitFor({ timeout: 10_000 });
    await shot(b.page, 'call-ended');
    // B reports the call from its screen (the safety report flow); the screen waits for him.
    await b.page.getByTestId('call-screen').getByRole('button', { name: 'Report' }).click();
    const form = b.page.getByRole('form', { name: 'Report Alex' });
    await form.getByLabel('What kind of problem?').selectOption('inappropriate_content');
    await form.getByLabel('What happened, in a few words').fill('He showed something I did not want to see');
    await shot(b.page, 'call-report');
    await form.getByRole('button', { name: 'Send report' }).click();
    await form.waitFor({ state: 'hidden' });
    const reports = await e().database.db.selectFrom('user_reports').selectAll().where('reporter_id', '=', bId).execute();
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ reported_id: aId, category: 'inappropriate_content' });
    expect(reports[0]!.description).toMatch(/^Reported from a video call \(/);
    await b.page.getByTestId('call-screen').getByRole('button', { name: 'Close' }).click();
    // The line in the chat, for both.
    await a.page
      .getByTestId('call-line')
      .getByText(/^Video call, \d+ s/)
      .waitFor({ timeout: 10_000 });
    await b.page.getByTestId('call-screen').waitFor({ state: 'detached', timeout: 10_000 });
    await b.page.goto(`/messages/${conversationId}`);
    await b.page
      .getByTestId('call-line')
      .getByText(/^Video call, \d+ s/)
      .waitFor({ timeout: 10_000 });
    await shot(b.page, 'call-line');

    // A free caller: the upgrade prompt, and the server refuses his ring.
    await e()
      .database.db.updateTable('users')
      .set({ subscription_tier: 'free', has_lifetime_premium: false })
      .where('id', '=', aId)
      .execute();
    await a.page.getByTestId('call-screen').waitFor({ state: 'detached', timeout: 10_000 });
    await a.page.getByRole('button', { name: 'Video call Ben' }).click();
    await a.page.getByText(VIDEO_CALL_UPSELL).waitFor();
    await a.page.getByRole('link', { name: 'See Premium' }).waitFor();
    await shot(a.page, 'call-upgrade');
    const refused = await apiIn(a.page, 'POST', '/calls', { userId: bId, kind: 'video', device: 'free-caller-tab' });
    expect(refused).toEqual({ status: 403, json: { error: 'limit_reached', message: VIDEO_CALL_UPSELL } });
    expect(await b.page.getByTestId('call-screen').count()).toBe(0);
  }, 120_000);

  it('explains a refused camera and microphone', async () => {
    const { a, b, conversationId } = await matchedPair(e, ['Cole', 'Dan']);
    // As when the person said no to the browser's prompt.
    await a.page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
    await a.page.goto(`/messages/${conversationId}`);
    await a.page.getByRole('button', { name: 'Voice call Dan' }).click();
    await a.page.locator('[data-phase="denied"]').waitFor({ timeout: 10_000 });
    await a.page.getByRole('alert').getByText('Your browser blocked the microphone.').waitFor();
    await shot(a.page, 'call-denied');
    expect(await axeViolations(a.page)).toEqual([]);
    // His ring stopped: the call ended for Dan as a missed call.
    await b.page.goto(`/messages/${conversationId}`);
    await b.page.getByTestId('call-line').getByText('Missed voice call').waitFor({ timeout: 10_000 });
  }, 90_000);
});

// Through a real TURN relay: Debian's coturn with the TURN REST secret, the server minting the
// credentials, and CALL_RELAY_ONLY so that only relayed candidates may connect.
const TURN_SECRET = 'e2e-turn-secret-0123456789';
const TURN_PORT = 40000 + Math.floor(Math.random() * 5000);
describe('video calls through coturn', () => {
  let turn: ChildProcess | null = null;
  beforeAll(async () => {
    turn = spawn(
      '/usr/bin/turnserver',
      [
        '-n',
        `--listening-port=${TURN_PORT}`,
        '--listening-ip=127.0.0.1',
        '--relay-ip=127.0.0.1',
        '--use-auth-secret',
        `--static-auth-secret=${TURN_SECRET}`,
        '--realm=fmk.test',
        '--allow-loopback-peers',
        '--no-cli',
        '--no-tls',
        '--no-dtls',
        '--min-port=49500',
        '--max-port=49600',
        '--log-file=stdout',
      ],
      { stdio: 'ignore' },
    );
    await pause(500);
  });
  afterAll(() => {
    turn?.kill();
  });
  const e = useE2E(
    { ICE_SERVERS: `turn:127.0.0.1:${TURN_PORT}?transport=udp`, TURN_SECRET, CALL_RELAY_ONLY: 'true' },
    {
      chromiumArgs: [
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        '--autoplay-policy=no-user-gesture-required',
      ],
    },
  );

  it('connects relayed only, with the minted credentials, and video flows both ways', async () => {
    const { a, b, conversationId } = await matchedPair(e, ['Eli', 'Finn']);
    await a.page.goto(`/messages/${conversationId}`);
    await b.page.goto('/grid');
    await b.page.waitForTimeout(500);
    await a.page.getByRole('button', { name: 'Video call Finn' }).click();
    await b.page.locator('[data-phase="incoming"]').waitFor({ timeout: 10_000 });
    const acceptedAt = Date.now();
    await b.page.getByRole('button', { name: 'Accept' }).click();
    for (const p of [a.page, b.page]) await p.locator('[data-phase="connected"]').waitFor({ timeout: 20_000 });
    await a.page.waitForFunction(
      () => (document.querySelector('[data-testid="remote-video"]') as HTMLVideoElement | null)?.videoWidth,
      undefined,
      { timeout: 20_000, polling: 20 },
    );
    const callerMs = Date.now() - acceptedAt;
    await b.page.waitForFunction(
      () => (window as unknown as { __fmkCall?: { marks: { firstFrameAt?: number } } }).__fmkCall?.marks.firstFrameAt,
      undefined,
      { timeout: 20_000, polling: 20 },
    );
    const calleeMs = await b.page.evaluate(() => {
      const m = (window as unknown as { __fmkCall: { marks: { acceptedAt: number; firstFrameAt: number } } }).__fmkCall.marks;
      return Math.round(m.firstFrameAt - m.acceptedAt);
    });
    console.log(`through TURN: accept → first remote frame: callee ${calleeMs} ms (in page), caller ${callerMs} ms (wall clock)`);
    expect(await selectedCandidateType(a.page)).toBe('relay');
    expect(await selectedCandidateType(b.page)).toBe('relay');
    const before = await rtp(b.page);
    await pause(1500);
    const after = await rtp(b.page);
    expect(after.framesDecoded).toBeGreaterThan(before.framesDecoded);

    // Eli's Premium lapses mid-call: his next signal (an ICE restart after a network change) is
    // refused with the upgrade text, and the server ends the call for both.
    await e()
      .database.db.updateTable('users')
      .set({ subscription_tier: 'free', has_lifetime_premium: false })
      .where('id', '=', await uidOf(a.page))
      .execute();
    await a.page.evaluate(() => window.dispatchEvent(new Event('online')));
    await b.page.locator('[data-phase="ended"]').waitFor({ timeout: 10_000 });
    await a.page.locator('[data-phase="ended"]').waitFor({ timeout: 10_000 });
    await a.page.getByRole('alert').getByText(VIDEO_CALL_UPSELL).waitFor({ timeout: 10_000 });
    await a.page.getByRole('link', { name: 'See Premium' }).waitFor();
    await shot(a.page, 'call-ended-upgrade');
    expect(await axeViolations(a.page)).toEqual([]);
  }, 90_000);
});
