import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'fmk-config-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('configuration', () => {
  it('defaults to port 8080 and ./data, generating development secrets once and keeping them', () => {
    const dir = tempDir();
    const a = loadConfig({ DATA_DIR: dir });
    expect(a.port).toBe(8080);
    expect(a.env).toBe('development');
    expect(a.tokenSecret.length).toBeGreaterThanOrEqual(32);
    const stored = JSON.parse(readFileSync(path.join(dir, 'secrets.json'), 'utf8')) as Record<string, string>;
    expect(stored.TOKEN_SECRET).toBe(a.tokenSecret);
    const b = loadConfig({ DATA_DIR: dir });
    expect(b.tokenSecret).toBe(a.tokenSecret);
    expect(b.emailHashKey).toBe(a.emailHashKey);
    expect(loadConfig({}).dataDir).toBe(path.resolve('./data'));
  });

  it('honours PORT and DATA_DIR', () => {
    const dir = tempDir();
    const c = loadConfig({ PORT: '9999', DATA_DIR: dir });
    expect(c.port).toBe(9999);
    expect(c.dataDir).toBe(dir);
  });

  it('stops production with one message naming every missing secret', () => {
    const dir = tempDir();
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, PUSH_ENABLED: 'false' })).toThrowError(
      new ConfigError('Missing required environment variables: TOKEN_SECRET, EMAIL_HASH_KEY, HEALTH_KEY'),
    );
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, PUSH_ENABLED: 'false', TOKEN_SECRET: 'x'.repeat(40) }),
    ).toThrowError('Missing required environment variables: EMAIL_HASH_KEY, HEALTH_KEY');
    const ok = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: dir,
      PUSH_ENABLED: 'false',
      TOKEN_SECRET: 'x'.repeat(40),
      EMAIL_HASH_KEY: 'y'.repeat(40),
      HEALTH_KEY: 'z'.repeat(40),
    });
    expect(ok.env).toBe('production');
    expect(ok.vapid).toBeNull();
  });

  it('reports every invalid variable together', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url', LOG_LEVEL: 'loud' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const msg = (err as Error).message;
      expect(msg).toContain('PORT');
      expect(msg).toContain('DATABASE_URL');
      expect(msg).toContain('LOG_LEVEL');
    }
  });

  it('needs all three Google settings or none', () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), OIDC_ISSUER: 'https://accounts.google.com' })).toThrowError(/OIDC_CLIENT_ID/);
  });

  it('Web Push: VAPID keys generated once in development, required in production unless turned off', () => {
    const dir = tempDir();
    const dev = loadConfig({ DATA_DIR: dir });
    expect(dev.vapid?.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(dev.vapid?.subject).toMatch(/^mailto:/);
    const stored = JSON.parse(readFileSync(path.join(dir, 'secrets.json'), 'utf8')) as Record<string, string>;
    expect(stored.VAPID_PRIVATE_KEY).toBe(dev.vapid?.privateKey);
    expect(stored.TOKEN_SECRET).toBe(dev.tokenSecret);
    expect(loadConfig({ DATA_DIR: dir }).vapid).toEqual(dev.vapid);
    expect(loadConfig({ DATA_DIR: dir, PUSH_ENABLED: 'false' }).vapid).toBeNull();
    expect(loadConfig({ DATA_DIR: tempDir(), NODE_ENV: 'test' }).vapid).toBeNull();

    const secrets = { TOKEN_SECRET: 'x'.repeat(40), EMAIL_HASH_KEY: 'y'.repeat(40), HEALTH_KEY: 'z'.repeat(40) };
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dir })).toThrowError(
      new ConfigError(
        'Missing required environment variables: TOKEN_SECRET, EMAIL_HASH_KEY, HEALTH_KEY, VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT',
      ),
    );
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, ...secrets, VAPID_PUBLIC_KEY: dev.vapid!.publicKey }),
    ).toThrowError('Missing required environment variables: VAPID_PRIVATE_KEY, VAPID_SUBJECT');
    expect(loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, ...secrets, PUSH_ENABLED: 'false' }).vapid).toBeNull();
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, ...secrets, PUSH_ENABLED: 'true', VAPID_SUBJECT: 'http://x' }),
    ).toThrowError(/VAPID_SUBJECT/);
    const prod = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: dir,
      ...secrets,
      VAPID_PUBLIC_KEY: dev.vapid!.publicKey,
      VAPID_PRIVATE_KEY: dev.vapid!.privateKey,
      VAPID_SUBJECT: 'mailto:ops@example.com',
    });
    expect(prod.vapid).toEqual({ ...dev.vapid, subject: 'mailto:ops@example.com' });
  });
});
