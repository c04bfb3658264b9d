import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { signUp } from '../../../test/factories.ts';
import { useTestApp } from '../../../test/harness.ts';
import { liveUrl } from '../../../test/live.ts';

/** How the live channel's upgrade is answered for a given Origin: 'open', or the HTTP status it was refused with. */
function attempt(url: string, origin: string | undefined): Promise<'open' | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, origin ? { origin } : {});
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

describe('the live channel and the Origin header', () => {
  // The upgrade's check does not touch the database: PGlite alone.
  const t = useTestApp('pglite', { env: { ALLOWED_ORIGINS: 'https://app.example.com' } });

  it("refuses a foreign Origin before upgrading; the server's own, the configured ones and none are accepted", async () => {
    await signUp(t().app);
    const url = await liveUrl(t().app);
    const self = new URL(url.replace('ws:', 'http:')).origin;
    expect(await attempt(url, 'https://evil.example')).toBe(403);
    expect(await attempt(url, 'http://127.0.0.1:1')).toBe(403);
    expect(await attempt(url, 'null')).toBe(403);
    expect(await attempt(url, self)).toBe('open');
    expect(await attempt(url, new URL(t().config.publicUrl).origin)).toBe('open');
    expect(await attempt(url, 'https://app.example.com')).toBe('open');
    // Not a browser (no Origin): the token still decides, as before.
    expect(await attempt(url, undefined)).toBe('open');
  });
});
