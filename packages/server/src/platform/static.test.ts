import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testConfig } from '../../test/harness.ts';
import { createApp } from '../app.ts';

describe('serving the built web app', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'fmk-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>FMK</title>');
  writeFileSync(
    path.join(dist, 'grid.html'),
    '<!doctype html><title>FMK</title><link rel="modulepreload" href="/assets/grid.js">',
  );
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('serves the entry at /, history fallback for app paths, and caches hashed assets for a year', async () => {
    const database = await openTestDatabase('pglite');
    const app = await createApp({ config: testConfig({ WEB_DIST: dist }), database, logger: false });
    try {
      for (const url of ['/', '/grid', '/profile/someone']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type']).toContain('text/html');
        expect(res.headers['cache-control']).toBe('no-cache');
      }
      // /grid gets its own page, which also preloads the grid's code; other paths the entry.
      expect((await app.inject({ method: 'GET', url: '/grid' })).body).toContain('modulepreload');
      expect((await app.inject({ method: 'GET', url: '/grid?x=1' })).body).toContain('modulepreload');
      expect((await app.inject({ method: 'GET', url: '/profile/someone' })).body).not.toContain('modulepreload');
      const asset = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toContain('immutable');
      expect((await app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
