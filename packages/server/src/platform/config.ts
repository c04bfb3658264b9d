import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { z } from 'zod';
import { type BusConfig, busEnv, resolveBus } from './bus/config.ts';
import { missingSquareKeys, type PaymentsConfig, resolvePayments } from './payments/config.ts';
import { type ProtectionsConfig, protectionsEnv, resolveProtections } from './protections/config.ts';

/**
 * Configuration from the environment, validated once at start, every bad variable reported together.
 * Secrets: required in production (one error naming every missing variable); in development
 * they are generated once and kept in DATA_DIR/secrets.json so sessions survive restarts.
 */
const SECRET_KEYS = ['TOKEN_SECRET', 'EMAIL_HASH_KEY', 'HEALTH_KEY'] as const;
type SecretKey = (typeof SECRET_KEYS)[number];

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .optional();

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().trim().min(1, 'DATA_DIR must not be empty').optional(),
  DATABASE_URL: z.string().url().optional(),
  ...busEnv,
  PUBLIC_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  TOKEN_SECRET: z.string().min(32, 'TOKEN_SECRET must be at least 32 characters').optional(),
  EMAIL_HASH_KEY: z.string().min(32, 'EMAIL_HASH_KEY must be at least 32 characters').optional(),
  HEALTH_KEY: z.string().min(32, 'HEALTH_KEY must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(6)
    .max(24 * 60)
    .default(60),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  BETA_PRIVILEGED_HOSTS: z.string().default(''),
  MAX_PHOTO_MB: z.coerce.number().min(1).max(50).default(15),
  ...protectionsEnv,
  // Origins besides the server's own whose pages may open the live channel (comma separated).
  ALLOWED_ORIGINS: z.string().default(''),
  // Photo moderation: the NSFW.js model scores every photo after upload; a profile
  // photo whose nudity score reaches MODERATION_HOLD_AT (the spec's 0.8) is held for staff.
  MODERATION_ENABLED: bool,
  GRID_CELL_LISTS: bool,
  GRID_MEMORY: bool,
  MODERATION_HOLD_AT: z.coerce.number().gt(0).max(1).default(0.8),
  // The spec's simulated safety alerts (every 30 s, a 10 % chance for each online member), for
  // demos only: off by default and refused in production, where an alert must mean a real event.
  DEMO_SAFETY_ALERTS: bool,
  TRUST_PROXY: bool,
  PUSH_ENABLED: bool,
  VAPID_PUBLIC_KEY: z.string().min(20).optional(),
  VAPID_PRIVATE_KEY: z.string().min(20).optional(),
  // Cruise map tiles: a Leaflet URL template; empty means a plain background.
  MAP_TILE_URL: z
    .string()
    .refine(
      (v) => v === '' || /^https?:\/\/.+\{z\}.*\{x\}.*\{y\}/.test(v),
      'MAP_TILE_URL must be an http(s) URL template with {z}, {x} and {y}',
    )
    .default(''),
  MAP_TILE_ATTRIBUTION: z.string().max(300).default(''),
  VAPID_SUBJECT: z
    .string()
    .refine((v) => /^(mailto:.+@.+|https:\/\/.+)$/.test(v), 'VAPID_SUBJECT must be a mailto: address or an https: URL')
    .optional(),
  // Outgoing mail: unset outside production, mails are written to DATA_DIR/outbox instead (platform/mail).
  SMTP_URL: z
    .string()
    .refine((v) => /^smtps?:\/\/[^/]+/.test(v), 'SMTP_URL must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().trim().min(3).max(200).optional(),
  // Texts (phone verification): Twilio's API when these are set (required in production unless
  // SMS_ENABLED=false); unset outside production, texts are written to DATA_DIR/sms-outbox (platform/sms).
  SMS_ENABLED: bool,
  TWILIO_ACCOUNT_SID: z.string().trim().min(2).max(64).optional(),
  TWILIO_AUTH_TOKEN: z.string().trim().min(1).max(200).optional(),
  SMS_FROM: z
    .string()
    .trim()
    .regex(
      /^(\+[1-9]\d{6,14}|MG[0-9a-fA-F]{32})$/,
      'SMS_FROM must be an E.164 number (+14155550123) or a Messaging Service SID (MG…)',
    )
    .optional(),
  TWILIO_API_URL: z.string().url().default('https://api.twilio.com'),
  // Payments: Square when its token and location are set, otherwise the built-in sandbox.
  SQUARE_ACCESS_TOKEN: z.string().trim().min(1).optional(),
  SQUARE_LOCATION_ID: z.string().trim().min(1).optional(),
  SQUARE_ENVIRONMENT: z.enum(['sandbox', 'production']).default('sandbox'),
  SQUARE_WEBHOOK_SIGNATURE_KEY: z.string().trim().min(1).optional(),
  SQUARE_APPLICATION_ID: z.string().trim().min(1).optional(),
  SQUARE_API_URL: z.string().url().optional(),
  SANDBOX_WEBHOOK_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
  // A movable clock for end-to-end tests (POST /api/v1/test/clock); never allowed in production.
  TEST_CLOCK: bool,
  // Calls: STUN/TURN URLs, comma separated; TURN credentials are minted with TURN_SECRET
  // (coturn's use-auth-secret). None: host candidates only (one network; tests).
  ICE_SERVERS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean),
    )
    .refine(
      (urls) => urls.every((u) => /^(stuns?|turns?):[^\s]+$/.test(u)),
      'ICE_SERVERS must be stun:, stuns:, turn: or turns: URLs',
    ),
  TURN_SECRET: z.string().min(16, 'TURN_SECRET must be at least 16 characters').optional(),
  TURN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  /** Calls through the TURN relay only: neither browser learns the other's IP address. */
  CALL_RELAY_ONLY: bool,
  /** How often each instance ends calls that rang out (their 45 s are counted on the injected clock). */
  CALL_SWEEP_MS: z.coerce.number().int().min(50).max(60_000).default(5000),
});

/** The payment provider: Square's API, or the built-in sandbox (platform/payments/config.ts). */
export type { PaymentsConfig };

const SMS_KEYS = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'SMS_FROM'] as const;

/** Where texts go: Twilio's API, the development outbox folder, or nowhere (SMS off). */
export type SmsConfig =
  | { kind: 'twilio'; apiUrl: string; accountSid: string; authToken: string; from: string }
  | { kind: 'outbox'; outboxDir: string }
  | { kind: 'off' };

const VAPID_KEYS = ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const;
/** Development's VAPID subject when none is given (push services want a contact). */
const DEV_VAPID_SUBJECT = 'mailto:push@fmk.invalid';

/** Web Push (VAPID) keys; null when push is disabled. */
export interface VapidConfig {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export interface Config extends ProtectionsConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** The data folder (absolute): see `resolveDataDir`. */
  dataDir: string;
  /** The embedded database's folder (DATA_DIR/db), for the server and the seed alike. */
  dbDir: string;
  /** Stored files (DATA_DIR/files): photos and their thumbnails. */
  filesDir: string;
  databaseUrl: string | undefined;
  /** NATS for live events across instances, or null: LISTEN/NOTIFY on PostgreSQL, in-process on PGlite. */
  bus: BusConfig | null;
  publicUrl: string;
  logLevel: string;
  webDist: string;
  tokenSecret: string;
  emailHashKey: string;
  /** Key-encryption key of the users' health data keys (envelope encryption, docs/decisions/0008). */
  healthKey: string;
  accessTokenTtlMinutes: number;
  sessionTtlDays: number;
  oidc: { issuer: string; clientId: string; clientSecret: string } | null;
  betaPrivilegedHosts: string[];
  maxPhotoBytes: number;
  /** Origins besides PUBLIC_URL's and the request's own that may open the live channel. */
  allowedOrigins: string[];
  /** Photo moderation: off only when MODERATION_ENABLED=false; holdAt is the nudity score that holds a profile photo. */
  moderation: { enabled: boolean; holdAt: number };
  gridCellLists: boolean; // per-cell grid candidate lists (docs/decisions/0015); GRID_CELL_LISTS=false: off
  gridMemory: boolean; // the grid's rules in memory over those lists (docs/decisions/0017); GRID_MEMORY=false: off
  /** DEMO_SAFETY_ALERTS: the spec's 30 s / 10 % simulated alerts (development demos only). */
  demoSafetyAlerts: boolean;
  trustProxy: boolean;
  /** Web Push keys, or null: push disabled (the app logs 'Push disabled: no VAPID key configured'). */
  vapid: VapidConfig | null;
  /** The cruise map's tile URL template, or null: markers on a plain background. */
  mapTileUrl: string | null;
  mapTileAttribution: string | null;
  /** Outgoing mail: the SMTP server, or null (development, tests): each mail goes to `outboxDir`. */
  mail: { smtpUrl: string | null; from: string; outboxDir: string };
  /** Texts for phone verification: off, the phone routes answer 503 with PhoneMessages.smsOff. */
  sms: SmsConfig;
  payments: PaymentsConfig;
  /** POST /api/v1/test/clock moves the server's clock (end-to-end tests); refused in production. */
  testClock: boolean;
  /** Calls: ICE server URLs, the TURN REST secret (null: TURN URLs go out without credentials), the ringing sweep. */
  calls: { iceServers: string[]; turnSecret: string | null; turnTtlSeconds: number; sweepMs: number; relayOnly: boolean };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The repository's root, found from this module's own place (packages/server/src/platform), never from the cwd. */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');
/** Where the data lives when DATA_DIR is not set: the repository root's `data`, for every command. */
export const DEFAULT_DATA_DIR = path.join(REPO_ROOT, 'data');

/**
 * The data folder. Unset, it is `<repo>/data` whichever folder a command runs in (`npm start` runs
 * the server from the root, `npm run seed` and `npm run dev` run in packages/server: they used to
 * disagree). A relative DATA_DIR is the user's own and is taken from the folder the command was
 * typed in: npm's INIT_CWD when npm started it (npm moves a workspace script into its package),
 * else the current directory. An absolute one is used as it is.
 */
export function resolveDataDir(env: NodeJS.ProcessEnv, given: string | undefined): string {
  if (!given) return DEFAULT_DATA_DIR;
  return path.resolve(env.INIT_CWD || process.cwd(), given);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production') {
    // One message naming every missing variable, so a deploy is fixed in one go.
    const missing = [
      ...SECRET_KEYS.filter((k) => !e[k]),
      ...missingVapid(e),
      ...(e.SMTP_URL ? [] : ['SMTP_URL']),
      ...missingSms(e),
    ];
    if (missing.length) throw new ConfigError(`Missing required environment variables: ${missing.join(', ')}`);
    if (e.TEST_CLOCK) throw new ConfigError('TEST_CLOCK is for tests only and cannot be set in production');
  }
  if (e.DEMO_SAFETY_ALERTS && e.NODE_ENV === 'production')
    throw new ConfigError('DEMO_SAFETY_ALERTS simulates safety alerts for demos and cannot be on in production');
  const dataDir = resolveDataDir(env, e.DATA_DIR);
  const secrets = resolveSecrets(e, dataDir);
  const vapid = resolveVapid(e, dataDir);
  const oidcParts = [e.OIDC_ISSUER, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET];
  if (oidcParts.some(Boolean) && !oidcParts.every(Boolean)) {
    throw new ConfigError('Google sign-in needs all of OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
  }
  const squareMissing = missingSquareKeys(e);
  if (squareMissing.length) throw new ConfigError(`Square payments need all of: ${squareMissing.join(', ')}`);
  if (e.ICE_SERVERS.some((u) => u.startsWith('turn')) && !e.TURN_SECRET) {
    throw new ConfigError('TURN URLs in ICE_SERVERS need TURN_SECRET (the static-auth-secret of coturn)');
  }
  if (e.CALL_RELAY_ONLY && !(e.ICE_SERVERS.some((u) => u.startsWith('turn')) && e.TURN_SECRET)) {
    throw new ConfigError('CALL_RELAY_ONLY needs a turn: URL in ICE_SERVERS and TURN_SECRET');
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    dbDir: path.join(dataDir, 'db'),
    filesDir: path.join(dataDir, 'files'),
    databaseUrl: e.DATABASE_URL,
    bus: resolveBus(e),
    publicUrl,
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? path.join(REPO_ROOT, 'packages/web/dist')),
    tokenSecret: secrets.TOKEN_SECRET,
    emailHashKey: secrets.EMAIL_HASH_KEY,
    healthKey: secrets.HEALTH_KEY,
    accessTokenTtlMinutes: e.ACCESS_TOKEN_TTL_MINUTES,
    sessionTtlDays: e.SESSION_TTL_DAYS,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET }
        : null,
    betaPrivilegedHosts: e.BETA_PRIVILEGED_HOSTS.split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    maxPhotoBytes: Math.round(e.MAX_PHOTO_MB * 1024 * 1024),
    ...resolveProtections(e),
    allowedOrigins: e.ALLOWED_ORIGINS.split(',')
      .map((o) => o.trim().replace(/\/$/, ''))
      .filter(Boolean),
    moderation: { enabled: e.MODERATION_ENABLED ?? true, holdAt: e.MODERATION_HOLD_AT },
    gridCellLists: e.GRID_CELL_LISTS ?? true,
    gridMemory: e.GRID_MEMORY ?? true,
    demoSafetyAlerts: e.DEMO_SAFETY_ALERTS ?? false,
    trustProxy: e.TRUST_PROXY ?? false,
    vapid,
    mapTileUrl: e.MAP_TILE_URL || null,
    mapTileAttribution: e.MAP_TILE_ATTRIBUTION || null,
    mail: {
      smtpUrl: e.SMTP_URL ?? null,
      from: e.MAIL_FROM ?? `no-reply@${new URL(publicUrl).hostname}`,
      outboxDir: path.join(dataDir, 'outbox'),
    },
    sms: resolveSms(e, dataDir),
    calls: {
      iceServers: e.ICE_SERVERS,
      turnSecret: e.TURN_SECRET ?? null,
      turnTtlSeconds: e.TURN_TTL_SECONDS,
      sweepMs: e.CALL_SWEEP_MS,
      relayOnly: e.CALL_RELAY_ONLY ?? false,
    },
    payments: resolvePayments(e),
    testClock: e.TEST_CLOCK ?? false,
  };
}

/** Production texts for real, unless SMS is turned off on purpose with SMS_ENABLED=false. */
function missingSms(e: z.infer<typeof envSchema>): string[] {
  if (e.SMS_ENABLED === false) return [];
  return SMS_KEYS.filter((k) => !e[k]);
}

function resolveSms(e: z.infer<typeof envSchema>, dataDir: string): SmsConfig {
  if (e.SMS_ENABLED === false) return { kind: 'off' };
  if (e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN && e.SMS_FROM) {
    return {
      kind: 'twilio',
      apiUrl: e.TWILIO_API_URL,
      accountSid: e.TWILIO_ACCOUNT_SID,
      authToken: e.TWILIO_AUTH_TOKEN,
      from: e.SMS_FROM,
    };
  }
  if (SMS_KEYS.some((k) => e[k])) throw new ConfigError(`Texts need all of ${SMS_KEYS.join(', ')}`);
  return { kind: 'outbox', outboxDir: path.join(dataDir, 'sms-outbox') };
}

function resolveSecrets(e: z.infer<typeof envSchema>, dataDir: string): Record<SecretKey, string> {
  const given: Partial<Record<SecretKey, string>> = {};
  for (const k of SECRET_KEYS) if (e[k]) given[k] = e[k];
  const missing = SECRET_KEYS.filter((k) => !given[k]);
  if (missing.length === 0) return given as Record<SecretKey, string>;
  // Production never gets here with one missing (loadConfig's first check).
  const file = path.join(dataDir, 'secrets.json');
  const stored = readStored(file);
  let changed = false;
  for (const k of missing) {
    if (!stored[k]) {
      stored[k] = randomBytes(32).toString('base64url');
      changed = true;
    }
  }
  if (changed) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return { ...stored, ...given } as Record<SecretKey, string>;
}

function readStored(file: string): Record<string, string> {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
}

/**
 * In production the VAPID keys are required (without them no push can be sent) unless push is
 * turned off on purpose with PUSH_ENABLED=false; then the app runs with the warning 'Push
 * disabled: no VAPID key configured'.
 */
function missingVapid(e: z.infer<typeof envSchema>): string[] {
  if (e.PUSH_ENABLED === false) return [];
  return VAPID_KEYS.filter((k) => !e[k]);
}

/**
 * VAPID keys: from the environment; in development generated once (webpush.generateVAPIDKeys)
 * and kept in DATA_DIR/secrets.json with the other development secrets. PUSH_ENABLED=false, or
 * no keys outside development, disables push.
 */
function resolveVapid(e: z.infer<typeof envSchema>, dataDir: string): VapidConfig | null {
  if (e.PUSH_ENABLED === false) return null;
  if (e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY) {
    return { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY, subject: e.VAPID_SUBJECT ?? DEV_VAPID_SUBJECT };
  }
  if (e.VAPID_PUBLIC_KEY || e.VAPID_PRIVATE_KEY) {
    throw new ConfigError('Web Push needs both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY');
  }
  if (e.NODE_ENV !== 'development') return null;
  const file = path.join(dataDir, 'secrets.json');
  const stored = readStored(file);
  if (!stored.VAPID_PUBLIC_KEY || !stored.VAPID_PRIVATE_KEY) {
    const keys = webpush.generateVAPIDKeys();
    stored.VAPID_PUBLIC_KEY = keys.publicKey;
    stored.VAPID_PRIVATE_KEY = keys.privateKey;
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return {
    publicKey: stored.VAPID_PUBLIC_KEY,
    privateKey: stored.VAPID_PRIVATE_KEY,
    subject: e.VAPID_SUBJECT ?? DEV_VAPID_SUBJECT,
  };
}
