import { describe, expect, it } from 'vitest';
import { signUp } from '../../../test/factories.ts';
import { testConfig, useTestApp } from '../../../test/harness.ts';

const TILES = 'https://{s}.tile.example.org/{z}/{x}/{y}.png';

describe('cruise map configuration', () => {
  describe('without a tile server', () => {
    const t = useTestApp('pglite');
    it('answers no tile URL: the map draws on a plain background', async () => {
      const u = await signUp(t().app);
      const res = await t().app.inject({ method: 'GET', url: '/api/v1/cruise/config', headers: u.headers });
      expect(res.json()).toEqual({ tileUrl: null, tileAttribution: null });
    });
  });

  describe('with MAP_TILE_URL', () => {
    const t = useTestApp('pglite', { env: { MAP_TILE_URL: TILES, MAP_TILE_ATTRIBUTION: '© Example' } });
    it('answers the template and lets the page load images from its origin (CSP)', async () => {
      const u = await signUp(t().app);
      const res = await t().app.inject({ method: 'GET', url: '/api/v1/cruise/config', headers: u.headers });
      expect(res.json()).toEqual({ tileUrl: TILES, tileAttribution: '© Example' });
      const page = await t().app.inject({ method: 'GET', url: '/cruise' });
      expect(String(page.headers['content-security-policy'])).toContain("img-src 'self' data: blob: https://*.tile.example.org");
    });
  });

  it('refuses a tile URL that is not a {z}/{x}/{y} template, naming the variable', () => {
    expect(() => testConfig({ MAP_TILE_URL: 'ftp://tiles' })).toThrow(/MAP_TILE_URL must be an http\(s\) URL template/);
  });
});
