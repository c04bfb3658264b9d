import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { RouteEntry } from '../../src/platform/routes.ts';
import { signUpMember, signUpStaff } from '../factories.ts';
import { DB_KINDS, useTestApp } from '../harness.ts';
import { liveUrl } from '../live.ts';
import { multipartFile } from '../multipart.ts';
import { recordScore } from './scoreboard.ts';

vi.setConfig({ hookTimeout: 300_000, testTimeout: 300_000 });

/** A built web app as the server serves it: a page, a route page, a hashed asset, the service worker. */
function webDist(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'fmk-headers-web-'));
  mkdirSync(path.join(dir, 'assets'));
  const page = '<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head></html>';
  writeFileSync(path.join(dir, 'index.html'), page);
  writeFileSync(path.join(dir, 'grid.html'), page);
  writeFileSync(path.join(dir, 'assets/index-Ab12Cd34.js'), 'console.log(1);');
  writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  return dir;
}

/** The server as deployed: production, over HTTPS behind its public address. */
const PRODUCTION = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://fmk.example.org',
  HEALTH_KEY: randomBytes(32).toString('hex'),
  SMTP_URL: 'smtp://127.0.0.1:9',
  SMS_ENABLED: 'false',
  PUSH_ENABLED: 'false',
  MODERATION_ENABLED: 'false',
  WEB_DIST: webDist(),
};

type Family = 'pages' | 'static assets' | 'open API' | 'member API' | 'admin API' | 'files' | 'signed photos' | 'live';

/**
 * The families a route of Fastify's list serves (open or member is told by asking it anonymously).
 * The web app's wildcard serves both the pages (index.html, route pages) and the static assets.
 */
function familiesOf(r: RouteEntry, anonymousStatus: number | null): Family[] {
  if (r.websocket) return ['live'];
  if (r.url === '/files/*') return ['files'];
  if (r.url === '/api/v1/messages/photos/:id') return ['signed photos'];
  if (r.url.startsWith('/api/docs')) return ['pages'];
  if (r.url.startsWith('/api/v1/admin/')) return ['admin API'];
  if (r.url.startsWith('/api/')) return [anonymousStatus === 401 ? 'member API' : 'open API'];
  if (r.url === '/*' || r.url === '/') return ['pages', 'static assets'];
  return [];
}

const CACHE: Record<Family, (v: string, url: string) => boolean> = {
  // Pages are the same for everyone: revalidated, never stored for long.
  pages: (v) => v === 'no-cache' || /no-store/.test(v) || v === '',
  // Hashed assets keep a year of public caching; the rest is revalidated.
  'static assets': (v, url) => (url.includes('/assets/') ? /public, max-age=31536000, immutable/.test(v) : v === 'no-cache'),
  'open API': (v) => /no-store/.test(v),
  'member API': (v) => /no-store/.test(v),
  'admin API': (v) => /no-store/.test(v),
  // Profile photos are public by design and never change under their key.
  files: (v) => /public, max-age=\d+/.test(v),
  // A chat photo: only the browser that holds its signed URL may keep it, for the URL's life.
  'signed photos': (v) => /^private, max-age=\d+$/.test(v),
  live: (v) => /no-store/.test(v),
};

/** The checks of one answer: header name → pass. */
function checks(family: Family, url: string, res: LightMyRequestResponse): Record<string, boolean> {
  const h = (name: string) => String(res.headers[name] ?? '');
  const csp = h('content-security-policy');
  const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1] ?? /(?:^|;)\s*default-src ([^;]*)/.exec(csp)?.[1] ?? '';
  const cookies = ([] as string[]).concat((res.headers['set-cookie'] as string | string[] | undefined) ?? []);
  return {
    HSTS:
      /max-age=(\d+)/.test(h('strict-transport-security')) &&
      Number(/max-age=(\d+)/.exec(h('strict-transport-security'))?.[1]) >= 15_552_000,
    'CSP, no inline script': csp !== '' && !scriptSrc.includes("'unsafe-inline'") && !scriptSrc.includes("'unsafe-eval'"),
    "frame-ancestors 'none'": /frame-ancestors 'none'/.test(csp) && h('x-frame-options') === 'DENY',
    nosniff: h('x-content-type-options') === 'nosniff',
    'Cache-Control': CACHE[family](h('cache-control'), url),
    'Referrer-Policy': ['no-referrer', 'same-origin', 'strict-origin-when-cross-origin'].includes(h('referrer-policy')),
    'cookie flags': cookies.every(
      (c) => /;\s*HttpOnly/i.test(c) && /;\s*Secure/i.test(c) && /;\s*SameSite=(Lax|Strict)/i.test(c),
    ),
  };
}

/** How the live channel's upgrade is answered for an Origin: 'open' or the refusal's status. */
function upgrade(url: string, origin: string): Promise<'open' | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { origin });
    ws.once('open', () => {
      ws.close();
      resolve('open');
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    ws.once('error', reject);
  });
}

/**
 * Headers and transport: every route family of Fastify's route list (pages, static assets, the
 * open, member and admin API, files, signed chat photos, the live channel) answers with HSTS, a
 * CSP without inline scripts and no framing, nosniff, the right Cache-Control (no-store on every
 * personal answer, public caching kept on assets), a Referrer-Policy and flagged cookies (none are
 * set); the live channel refuses a foreign Origin.
 */
describe.each(DB_KINDS)('security headers on %s', (kind) => {
  const t = useTestApp(kind, { env: PRODUCTION });

  it('are on every answer of every route family', async () => {
    const { app, db, clock } = t();
    const member = await signUpMember(app, db);
    const owner = await signUpStaff(app, db, 'owner', clock.now());
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c33' } })
      .jpeg()
      .toBuffer();
    const upload = async (url: string) => {
      const file = multipartFile(jpeg);
      const res = await app.inject({
        method: 'POST',
        url,
        headers: { ...member.headers, ...file.headers },
        payload: file.payload,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().url as string;
    };
    const profilePhoto = await upload('/api/v1/me/photos');
    const chatPhoto = await upload('/api/v1/messages/photos');

    const routes = app.routeList.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');
    const fill = (url: string) => url.replace(/:\w+/g, member.user.uid).replace('*', 'x');
    const asked: Array<{ family: Family; url: string; res: LightMyRequestResponse }> = [];
    const unfiled: string[] = [];
    const perFamily = new Map<Family, number>();
    for (const r of routes) {
      // An API route that needs a member answers an anonymous caller 401 before reading anything.
      const isApi = r.url.startsWith('/api/') && !r.websocket && !r.url.startsWith('/api/docs');
      const anonymous = isApi ? await app.inject({ method: r.method as 'GET', url: fill(r.url) }) : null;
      const families = familiesOf(r, anonymous?.statusCode ?? null);
      if (families.length === 0) unfiled.push(`${r.method} ${r.url}`);
      for (const f of families) perFamily.set(f, (perFamily.get(f) ?? 0) + 1);
      const family = families[0];
      if (!family) continue;
      if (!isApi || r.method !== 'GET' || family === 'signed photos') continue;
      // Every GET of the API, as the caller it is for: anonymous, the member, or staff.
      const headers = family === 'member API' ? member.headers : family === 'admin API' ? owner.staffHeaders : {};
      const url = fill(r.url);
      asked.push({
        family,
        url,
        res: family === 'open API' ? (anonymous as LightMyRequestResponse) : await app.inject({ method: 'GET', url, headers }),
      });
    }
    const get = async (family: Family, url: string, init: { method?: 'GET' | 'POST'; payload?: object } = {}) =>
      asked.push({
        family,
        url,
        res: await app.inject({ method: init.method ?? 'GET', url, ...(init.payload ? { payload: init.payload } : {}) }),
      });
    // The answers that carry a token are personal too, though asked anonymously.
    await get('open API', '/api/v1/auth/login', {
      method: 'POST',
      payload: { email: member.user.email, password: 'correct horse battery' },
    });
    for (const url of ['/', '/grid', '/settings/privacy', '/api/docs', '/api/docs/static/index.html']) await get('pages', url);
    for (const url of ['/assets/index-Ab12Cd34.js', '/sw.js']) await get('static assets', url);
    await get('files', profilePhoto);
    await get('files', profilePhoto.replace(/\.webp$/, '.t.webp'));
    await get('signed photos', chatPhoto);
    for (const { url, res } of asked.filter((a) => a.family !== 'open API' || a.url.includes('login'))) {
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
    }

    // The live channel: a foreign page may not open it; the server's own may.
    const live = await liveUrl(app);
    const foreign = await upgrade(live, 'https://evil.example');
    const own = await upgrade(live, 'https://fmk.example.org');
    const refusal = await app.inject({ method: 'GET', url: '/api/v1/live', headers: { origin: 'https://evil.example' } });
    asked.push({ family: 'live', url: '/api/v1/live (foreign Origin)', res: refusal });

    // Families × headers: a cell passes when every answer of the family passes it.
    const cells = new Map<string, string[]>();
    for (const { family, url, res } of asked) {
      for (const [header, ok] of Object.entries(checks(family, url, res))) {
        const key = `${family} × ${header}`;
        if (!cells.has(key)) cells.set(key, []);
        if (!ok) cells.get(key)?.push(`${url} (${res.statusCode})`);
      }
    }
    cells.set('live × foreign Origin refused', foreign === 403 && own === 'open' ? [] : [`foreign ${foreign}, own ${own}`]);
    const failing = [...cells].filter(([, bad]) => bad.length > 0).map(([cell, bad]) => `${cell}: ${bad.slice(0, 5).join(', ')}`);
    const families = [...perFamily].map(([f, n]) => `${f} ${n}`).join(', ');
    const cookies = asked.filter((a) => a.res.headers['set-cookie']).length;
    recordScore({
      id: '10-headers',
      db: kind,
      measure:
        "Headers: HSTS, CSP without inline scripts, frame-ancestors 'none', nosniff, Cache-Control (no-store on personal answers), Referrer-Policy, cookie flags, live Origin; on every route family",
      figure: `${cells.size - failing.length} / ${cells.size} family × header cells over ${asked.length} answers (routes: ${families}; ${cookies} answers set a cookie)${unfiled.length ? `; ${unfiled.length} routes in no family` : ''}`,
      goal: 'every cell, every route in a family',
      pass: failing.length === 0 && unfiled.length === 0,
    });
    expect(unfiled).toEqual([]);
    expect(failing).toEqual([]);
    expect([...perFamily.keys()].sort()).toEqual(
      ['admin API', 'files', 'live', 'member API', 'open API', 'pages', 'signed photos', 'static assets'].sort(),
    );
  });
});
