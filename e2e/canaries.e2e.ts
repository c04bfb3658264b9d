import type { Page, Request } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { recordScore } from '../packages/server/test/security/scoreboard.ts';
import { join, located, matchEachOther, NEARBY } from './flows.ts';
import { useE2E } from './harness.ts';

/**
 * Special-category data in the browser (the security scoreboard's 09b): A keeps a medication, an
 * activity contact and a trusted contact, stands at an exact position and uploads a phone photo
 * with GPS in its EXIF; his match B browses his profile and chats with him. Then both browsers are
 * read whole (local storage, session storage, every IndexedDB store, every service-worker cache,
 * every URL asked for, and the bytes of A's photos as B receives them): none of A's canaries may be
 * in B's browser, his health and contact canaries in no browser storage (his own included: they stay
 * on the server), no canary in any URL, no request to an origin but the app's own, and no served
 * photo with EXIF.
 */

/** A's position: four decimals (about 10 m) would already give him away. */
const EXACT = { latitude: 37.761371, longitude: -122.434893 };

/** What the page holds: storages, IndexedDB and Cache Storage, as one text per place. */
async function browserStorage(page: Page): Promise<Record<string, string>> {
  return page.evaluate(async () => {
    const out: Record<string, string> = {
      localStorage: JSON.stringify({ ...localStorage }),
      sessionStorage: JSON.stringify({ ...sessionStorage }),
    };
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(info.name!);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const [keys, values] = await Promise.all(
          ['getAllKeys', 'getAll'].map(
            (m) =>
              new Promise<unknown>((resolve, reject) => {
                const r = db.transaction(store).objectStore(store)[m as 'getAll']();
                r.onsuccess = () => resolve(r.result);
                r.onerror = () => reject(r.error);
              }),
          ),
        );
        out[`indexedDB ${info.name}/${store}`] = JSON.stringify({ keys, values });
      }
      db.close();
    }
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      const parts: string[] = [];
      for (const req of await cache.keys()) {
        const res = await cache.match(req);
        const type = res?.headers.get('content-type') ?? '';
        // Images are checked for metadata separately; text of every other kind is read.
        parts.push(req.url, type.startsWith('image/') ? '' : ((await res?.text()) ?? ''));
      }
      out[`cache ${name}`] = parts.join('\n');
    }
    return out;
  });
}

/** A call to the API as the page's signed-in user. */
async function apiAs(page: Page, method: string, url: string, body?: object) {
  return page.evaluate(
    async ({ method, url, body }) => {
      const token = localStorage.getItem('auth_token');
      const res = await fetch(url, {
        method,
        headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), Authorization: `Bearer ${token}` },
        body: body ? JSON.stringify(body) : null,
      });
      return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, unknown> | null };
    },
    { method, url, body },
  );
}

describe('special-category canaries in the browser', () => {
  const e = useE2E();

  it("A's private data stays out of both browsers, every request stays on the app's origin, and photos arrive without EXIF", async () => {
    const a = await e().newPage(located(EXACT));
    const b = await e().newPage(located(NEARBY));
    const origin = new URL(e().baseUrl).origin;
    const requests: { who: string; url: string }[] = [];
    const watch = (who: string, page: Page) => page.on('request', (r: Request) => requests.push({ who, url: r.url() }));
    watch('A', a.page);
    watch('B', b.page);
    // Service workers' own fetches (caching photos, the app shell) count too.
    for (const [who, ctx] of [
      ['A', a.context],
      ['B', b.context],
    ] as const)
      ctx.on('request', (r: Request) => requests.push({ who, url: r.url() }));

    await join(a.page, 'Alex');
    await join(b.page, 'Ben');

    const tag = Date.now().toString(36);
    const canaries = {
      medication: `Canarymed${tag}`,
      contact: `Canarycontact${tag}`,
      trusted: `Canarytrusted${tag}`,
      'exact latitude': '37.7613',
      'exact longitude': '-122.4348',
    };
    expect(
      (await apiAs(a.page, 'POST', '/api/v1/health/medications', { name: canaries.medication, reminderTime: '08:30' })).status,
    ).toBe(201);
    expect((await apiAs(a.page, 'POST', '/api/v1/activity/contacts', { name: canaries.contact })).status).toBe(201);
    const trusted = await apiAs(a.page, 'PUT', '/api/v1/me/safety-contact', {
      name: canaries.trusted,
      email: `${canaries.trusted.toLowerCase()}@example.com`,
    });
    expect(trusted.status, JSON.stringify(trusted.json)).toBeLessThan(300);
    const me = await apiAs(a.page, 'GET', '/api/v1/me');
    const email = String(me.json?.email ?? '');
    expect(email).toContain('@');

    // A looks at his own private screens: whatever the app would keep of them, it keeps now.
    for (const path of ['/health', '/activity', '/safety', '/settings'])
      await a.page.goto(path).then(() => a.page.waitForLoadState('networkidle'));

    await matchEachOther(a.page, 'Alex', b.page, 'Ben');
    await a.page.goto('/messages');
    await a.page.getByRole('region', { name: 'New matches' }).getByRole('link', { name: /^Ben:/ }).click();
    await a.page.getByRole('textbox', { name: 'Message' }).fill('hey there');
    await a.page.getByRole('button', { name: 'Send' }).click();
    await b.page.goto('/messages');
    await b.page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: /^Alex/ }).click();
    await b.page.getByText('hey there').waitFor();
    await b.page.goto('/grid');
    await b.page.getByRole('link', { name: /^Alex, 29/ }).click();
    await b.page.getByRole('heading', { name: /Alex/ }).first().waitFor();
    // Long enough for the offline copy's gathered write (about a second) and the photo cache.
    for (const p of [a.page, b.page]) await p.waitForTimeout(2500);

    // A's photos as B receives them: no EXIF (camera, GPS) left in any.
    const photoUrls = [
      ...new Set(
        requests.filter((r) => r.who === 'B' && /\.(jpe?g|webp|png|avif)(\?|$)|\/photos\//.test(r.url)).map((r) => r.url),
      ),
    ];
    let withExif = 0;
    let photosChecked = 0;
    for (const url of photoUrls) {
      const res = await b.page.request.get(url);
      if (!res.ok() || !(res.headers()['content-type'] ?? '').startsWith('image/')) continue;
      const meta = await sharp(await res.body()).metadata();
      photosChecked += 1;
      if (meta.exif || meta.xmp || meta.iptc) withExif += 1;
    }
    expect(photosChecked).toBeGreaterThan(0);

    // A control: the stores read are the real ones (B's offline copy holds the grid he saw, Alex's
    // card in it). The copy's write is gathered and waits for an idle moment, later on a loaded machine.
    await expect
      .poll(async () => Object.values(await browserStorage(b.page)).join('\n'), { timeout: 30_000, interval: 500 })
      .toContain('"displayName":"Alex"');
    const aStorage = await browserStorage(a.page);
    const bStorage = await browserStorage(b.page);
    const found: string[] = [];
    const scan = (where: string, text: string, marks: Record<string, string>) => {
      for (const [what, mark] of Object.entries(marks)) if (mark && text.includes(mark)) found.push(`${what} in ${where}`);
    };
    // B's browser: nothing of A's.
    for (const [place, text] of Object.entries(bStorage)) scan(`B's ${place}`, text, { ...canaries, email });
    // A's own browser: his health and contacts stay on the server (his own email and place may be shown to him).
    for (const [place, text] of Object.entries(aStorage))
      scan(`A's ${place}`, text, { medication: canaries.medication, contact: canaries.contact, trusted: canaries.trusted });
    for (const r of requests) scan(`a URL ${r.who} asked for (${r.url})`, decodeURIComponent(r.url), { ...canaries, email });
    const foreign = requests.filter((r) => !r.url.startsWith(origin) && !/^(data|blob):/.test(r.url));

    const places = Object.keys(aStorage).length + Object.keys(bStorage).length;
    recordScore({
      id: '09b-browser',
      measure:
        "Special-category canaries in the browser (A's match B's storage, IndexedDB, caches and URLs; A's own storage for health and contacts), requests to other origins, EXIF in served photos",
      figure: `${found.length} canaries found in ${places} stores and ${requests.length} URLs; ${foreign.length} requests to other origins; ${withExif} of ${photosChecked} photos with EXIF`,
      goal: '0, 0, 0',
      pass: found.length === 0 && foreign.length === 0 && withExif === 0,
    });
    expect(found).toEqual([]);
    expect(foreign.map((r) => `${r.who}: ${r.url}`)).toEqual([]);
    expect(withExif).toBe(0);
  }, 240_000);
});
