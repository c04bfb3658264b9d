import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_DATA_DIR, loadConfig, REPO_ROOT } from './config.ts';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'fmk-config-'));
  dirs.push(d);
  return d;
};
const SECRETS = { TOKEN_SECRET: 'x'.repeat(40), EMAIL_HASH_KEY: 'y'.repeat(40), HEALTH_KEY: 'z'.repeat(40) };
/** Production needs a mail server and an SMS provider (turned off here); nothing is sent in these tests. */
const SMTP = { SMTP_URL: 'smtp://127.0.0.1:2525', SMS_ENABLED: 'false' };
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('configuration', () => {
  it('defaults to port 8080, generating development secrets once and keeping them', () => {
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
  });

  it("keeps the data in the repository root's data folder when DATA_DIR is not set", () => {
    const c = loadConfig({ NODE_ENV: 'test', ...SECRETS });
    expect(DEFAULT_DATA_DIR).toBe(path.join(REPO_ROOT, 'data'));
    expect(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).toContain('"name": "fmk"');
    expect(c).toMatchObject({ dataDir: DEFAULT_DATA_DIR, dbDir: path.join(DEFAULT_DATA_DIR, 'db') });
    expect(c.filesDir).toBe(path.join(DEFAULT_DATA_DIR, 'files'));
  });

  /**
   * Both commands must find the same data. `npm start` runs the server from the root
   * (scripts/start.mjs), `npm run seed` runs the seed in packages/server (npm moves a workspace
   * script there, INIT_CWD keeps where it was typed). Both read loadConfig().dbDir and .filesDir.
   * Each case runs in a process of its own in that folder, so process.cwd() is really what the
   * command has.
   */
  it('gives npm start and npm run seed the same data folder, whatever folder each runs in', () => {
    const configUrl = new URL('./config.ts', import.meta.url).href;
    const tsx = import.meta.resolve('tsx');
    const resolveIn = (cwd: string, env: Record<string, string>) => {
      const script = `const { loadConfig } = await import(${JSON.stringify(configUrl)});
        const c = loadConfig({ NODE_ENV: 'test', ...JSON.parse(process.env.SECRETS), ...JSON.parse(process.env.GIVEN) });
        console.log(JSON.stringify({ dbDir: c.dbDir, filesDir: c.filesDir }));`;
      const out = execFileSync(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], {
        cwd,
        env: { PATH: process.env.PATH ?? '', SECRETS: JSON.stringify(SECRETS), GIVEN: JSON.stringify(env) },
        encoding: 'utf8',
      });
      return JSON.parse(out) as { dbDir: string; filesDir: string };
    };
    const elsewhere = tempDir();
    const expected = { dbDir: path.join(REPO_ROOT, 'data', 'db'), filesDir: path.join(REPO_ROOT, 'data', 'files') };
    const start = resolveIn(REPO_ROOT, { INIT_CWD: REPO_ROOT });
    const seed = resolveIn(path.join(REPO_ROOT, 'packages/server'), { INIT_CWD: REPO_ROOT });
    const fromElsewhere = resolveIn(elsewhere, {});
    expect(start).toEqual(expected);
    expect(seed).toEqual(expected);
    expect(fromElsewhere).toEqual(expected);

    // A relative DATA_DIR is the user's: from the folder the command was typed in.
    expect(resolveIn(path.join(REPO_ROOT, 'packages/server'), { INIT_CWD: elsewhere, DATA_DIR: './mine' }).dbDir).toBe(
      path.join(elsewhere, 'mine', 'db'),
    );
  }, 60_000);

  it('takes a relative DATA_DIR from where the command was typed, an absolute one as it is, and refuses an empty one', () => {
    const dir = tempDir();
    expect(loadConfig({ NODE_ENV: 'test', ...SECRETS, DATA_DIR: 'here', INIT_CWD: dir }).dataDir).toBe(path.join(dir, 'here'));
    expect(loadConfig({ NODE_ENV: 'test', ...SECRETS, DATA_DIR: dir, INIT_CWD: '/elsewhere' }).dataDir).toBe(dir);
    expect(() => loadConfig({ NODE_ENV: 'test', ...SECRETS, DATA_DIR: ' ' })).toThrowError(/DATA_DIR must not be empty/);
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
      new ConfigError(
        'Missing required environment variables: TOKEN_SECRET, EMAIL_HASH_KEY, HEALTH_KEY, SMTP_URL, TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, SMS_FROM',
      ),
    );
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, PUSH_ENABLED: 'false', ...SMTP, TOKEN_SECRET: 'x'.repeat(40) }),
    ).toThrowError('Missing required environment variables: EMAIL_HASH_KEY, HEALTH_KEY');
    const ok = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: dir,
      PUSH_ENABLED: 'false',
      ...SMTP,
      TOKEN_SECRET: 'x'.repeat(40),
      EMAIL_HASH_KEY: 'y'.repeat(40),
      HEALTH_KEY: 'z'.repeat(40),
    });
    expect(ok.env).toBe('production');
    expect(ok.vapid).toBeNull();
    expect(ok.mail.smtpUrl).toBe(SMTP.SMTP_URL);
  });

  it('mail: SMTP_URL and MAIL_FROM, or the outbox folder under DATA_DIR when SMTP_URL is unset', () => {
    const dir = tempDir();
    const dev = loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'https://app.example.com' });
    expect(dev.mail).toEqual({ smtpUrl: null, from: 'no-reply@app.example.com', outboxDir: path.join(dir, 'outbox') });
    const smtp = loadConfig({
      DATA_DIR: dir,
      SMTP_URL: 'smtps://u:p@mail.example.com:465',
      MAIL_FROM: 'Account <a@example.com>',
    });
    expect(smtp.mail.smtpUrl).toBe('smtps://u:p@mail.example.com:465');
    expect(smtp.mail.from).toBe('Account <a@example.com>');
    expect(() => loadConfig({ DATA_DIR: dir, SMTP_URL: 'http://mail.example.com' })).toThrowError(/SMTP_URL must be an smtp/);
  });

  it('texts: Twilio with all three of its variables, the outbox folder without, off when SMS_ENABLED=false', () => {
    const dir = tempDir();
    expect(loadConfig({ DATA_DIR: dir }).sms).toEqual({ kind: 'outbox', outboxDir: path.join(dir, 'sms-outbox') });
    const twilio = { TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}`, TWILIO_AUTH_TOKEN: 'secret', SMS_FROM: '+15005550006' };
    expect(loadConfig({ DATA_DIR: dir, ...twilio }).sms).toEqual({
      kind: 'twilio',
      apiUrl: 'https://api.twilio.com',
      accountSid: twilio.TWILIO_ACCOUNT_SID,
      authToken: 'secret',
      from: '+15005550006',
    });
    expect(loadConfig({ DATA_DIR: dir, ...twilio, TWILIO_API_URL: 'http://127.0.0.1:9' }).sms).toMatchObject({
      apiUrl: 'http://127.0.0.1:9',
    });
    expect(() => loadConfig({ DATA_DIR: dir, TWILIO_AUTH_TOKEN: 'secret' })).toThrowError(
      new ConfigError('Texts need all of TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, SMS_FROM'),
    );
    expect(() => loadConfig({ DATA_DIR: dir, ...twilio, SMS_FROM: '0800 FMK' })).toThrowError(/SMS_FROM must be an E\.164/);
    expect(loadConfig({ DATA_DIR: dir, SMS_ENABLED: 'false' }).sms).toEqual({ kind: 'off' });
    // Production: all three, or SMS turned off on purpose.
    const prod = { NODE_ENV: 'production', DATA_DIR: dir, PUSH_ENABLED: 'false', SMTP_URL: SMTP.SMTP_URL, ...SECRETS };
    expect(() => loadConfig({ ...prod, SMS_FROM: '+15005550006' })).toThrowError(
      new ConfigError('Missing required environment variables: TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN'),
    );
    expect(loadConfig({ ...prod, ...twilio }).sms.kind).toBe('twilio');
    expect(loadConfig({ ...prod, SMS_ENABLED: 'false' }).sms).toEqual({ kind: 'off' });
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

    const secrets = { TOKEN_SECRET: 'x'.repeat(40), EMAIL_HASH_KEY: 'y'.repeat(40), HEALTH_KEY: 'z'.repeat(40), ...SMTP };
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dir })).toThrowError(
      new ConfigError(
        'Missing required environment variables: TOKEN_SECRET, EMAIL_HASH_KEY, HEALTH_KEY, VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT, SMTP_URL, TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, SMS_FROM',
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
