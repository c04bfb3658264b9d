import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  cellOf,
  type DatingProfile,
  DEFAULT_DATING_PROFILE,
  DEFAULT_MODE_VISIBILITY,
  DEFAULT_NOW_PROFILE,
  DEFAULT_PREFERENCES,
  DEFAULT_STATS,
  distanceKm,
  MIN_PASSWORD_LENGTH,
  type NowProfile,
  POSITIONS,
  type Preferences,
  STARTER_PROMPTS,
  snap,
} from '@fmk/core';
import { sql } from 'kysely';
import { type Db, migrateToLatest, openDatabase } from './db/index.ts';
import type { NewUser } from './db/schema.ts';
import { hashPassword } from './modules/auth/service.ts';
import { CruiseSessionService } from './modules/cruise/sessions.ts';
import { GameService } from './modules/game/service.ts';
import { seedStarterPrompts, starterPromptId } from './modules/prompts/repo.ts';
import { loadActor } from './platform/access.ts';
import { LocalBus } from './platform/bus.ts';
import { ConfigError, loadConfig } from './platform/config.ts';
import { AppError } from './platform/errors.ts';
import { listedGeo, newPlaceShift } from './platform/geo.ts';
import { thumbnailKey } from './platform/media/files.ts';
import { LocalDiskStorage, type Storage } from './platform/storage.ts';
import {
  ANSWERS,
  BIO_CLOSERS,
  BIO_MIDDLES,
  BIO_OPENERS,
  BUILDS,
  FIRST_NAMES,
  GOALS,
  INTERESTS,
  LAST_INITIALS,
  LOOKING_FOR,
  NOW_LOOKING_FOR,
  RIGHT_NOW,
  RIGHT_NOW_ACTIVE,
  TRIBES,
} from './seed-content.ts';
import { FACE_COUNT, faceOf, lookOf, PortraitPool, VARIANTS } from './seed-portraits.ts';
import { mulberry32 } from './seed-random.ts';

/**
 * Demo data: a living world of men with ids `demo-0001`...
 * around a city, with illustrated portraits (two or three photos each), answered prompts and now
 * profiles; about half visible in Hookup mode, some in it now, some cruising, some online.
 * Deterministic for a given SEED and idempotent: existing men are left alone, and a rerun only
 * refreshes what goes stale (locations, presence, cruise sessions).
 *
 * Sign-in is the caller's choice (`password`): `npm run seed` gives every demo man, and a demo
 * viewer whom the nearest men have already picked, a shared demo password outside production.
 * The product itself never fakes a pick: the viewer's picks are made by the seed, through the
 * game, before anyone signs in.
 */

/** Built-in cities. Each demo user gets a home point near the city; its cell is his grid location. */
export const DEMO_CITIES: Record<string, { lat: number; lng: number; area: string[] }> = {
  'San Francisco': { lat: 37.7749, lng: -122.4194, area: ['the Castro', 'the Mission', 'SoMa', 'Noe Valley', 'Hayes Valley'] },
  'New York': { lat: 40.7128, lng: -74.006, area: ["Hell's Kitchen", 'Chelsea', 'Bushwick', 'the West Village', 'Astoria'] },
  London: { lat: 51.5074, lng: -0.1278, area: ['Soho', 'Vauxhall', 'Hackney', 'Clapham', 'Islington'] },
  Berlin: { lat: 52.52, lng: 13.405, area: ['Schöneberg', 'Kreuzberg', 'Neukölln', 'Prenzlauer Berg', 'Friedrichshain'] },
  Sydney: { lat: -33.8688, lng: 151.2093, area: ['Darlinghurst', 'Newtown', 'Surry Hills', 'Bondi', 'Paddington'] },
  Toronto: { lat: 43.6532, lng: -79.3832, area: ['the Village', 'Leslieville', 'the Annex', 'Queen West', 'Kensington'] },
};

export interface SeedOptions {
  count: number;
  city: string;
  seed: number;
  /**
   * Sign-in for the demo world: every demo man's password, and the demo viewer's, who is only
   * made when there is one. Unset or null: no demo account can sign in (the tests' worlds).
   */
  password?: string | null;
  /** Rendered portraits; one pool may serve several seeds (it keeps what it rendered). */
  portraits?: PortraitPool;
}

/** The demo viewer as the seed leaves him: who picked him already. */
export interface SeededViewer {
  id: string;
  email: string;
  created: boolean;
  likedBy: { id: string; displayName: string; email: string; action: 'fuck' | 'marry' }[];
}

export interface SeedResult {
  created: number;
  existing: number;
  city: string;
  /** Home points before snapping (the stored location is the centre of each one's cell). */
  homes: { id: string; lat: number; lng: number }[];
  /** Of the demo men in the database: visible in Hookup mode, in it now, online, cruising now. */
  world: { men: number; showInNow: number; inNow: number; online: number; cruising: number };
  /** Portraits rendered by this run (the rest came from the pool or its cache). */
  portraitsRendered: number;
  viewer: SeededViewer | null;
}

/** The demo viewer: an account to sign in as, whom a few demo men have already picked. */
export const DEMO_VIEWER = { id: 'demo-viewer', email: 'demo@fmk.invalid', displayName: 'Demo' } as const;
/** The password `npm run seed` gives the demo accounts outside production (SEED_PASSWORD to change it). */
export const DEMO_PASSWORD = 'demo-password';
/** How many demo men, the nearest to the viewer, have picked him (fuck or marry). */
export const VIEWER_LIKERS = 4;
/**
 * At most this many demo men cruise (the first ones drawn): a city's nearby list shows 50, and
 * each session is started through the cruise service, which a world of thousands would wait on.
 */
export const MAX_CRUISING = 60;

export const demoEmail = (id: string): string => `${id}@demo.fmk.invalid`;

export { mulberry32 };

const ALPHANUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

interface DemoUser {
  id: string;
  anonymousId: string;
  displayName: string;
  age: number;
  bio: string;
  interests: string[];
  tribes: string[];
  datingProfile: DatingProfile;
  nowProfile: NowProfile;
  preferences: Preferences;
  home: { lat: number; lng: number };
  /** Portrait face (seed-portraits.ts) and the variants that are his photos, first one first. */
  face: number;
  variants: number[];
  tier: 'free' | 'premium' | 'platinum';
  showInNow: boolean;
  /** In Hookup mode now (current mode), with his Right Now line on when he has one. */
  inNow: boolean;
  /** In a cruise session (Platinum: no quota, so a later seed can start it again). */
  cruising: boolean;
  online: boolean;
  /** Minutes since he was last seen. */
  seenMinutesAgo: number;
}

/**
 * Every demo user from the PRNG, generated in order whether or not it already exists. The draws
 * of the first seed (names, ages, homes...) come from one stream in their old order, so the same
 * SEED still gives the same men; what was added later (faces, photos, Hookup mode, presence) comes
 * from a stream of each man's own.
 */
function generate(opts: SeedOptions): DemoUser[] {
  const city = DEMO_CITIES[opts.city];
  if (!city) throw new Error(`Unknown SEED_CITY "${opts.city}". Choose one of: ${Object.keys(DEMO_CITIES).join(', ')}`);
  const rnd = mulberry32(opts.seed);
  const int = (min: number, max: number) => min + Math.floor(rnd() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const some = <T>(list: readonly T[], min: number, max: number): T[] => {
    const pool = [...list];
    const out: T[] = [];
    for (let n = int(min, max); n > 0 && pool.length > 0; n--) out.push(pool.splice(Math.floor(rnd() * pool.length), 1)[0]!);
    return out;
  };
  const faces = faceDealer(opts.seed);
  let cruisers = 0;
  const users: DemoUser[] = [];
  for (let i = 1; i <= opts.count; i++) {
    const id = `demo-${String(i).padStart(4, '0')}`;
    const own = mulberry32(Math.imul(opts.seed, 0x9e3779b1) ^ Math.imul(i, 0x85ebca6b) ^ 0x5eed14);
    const chance = (p: number) => own() < p;
    const ownPick = <T>(list: readonly T[]): T => list[Math.floor(own() * list.length)]!;
    let anon = 'anon_';
    for (let k = 0; k < 12; k++) anon += ALPHANUM[Math.floor(rnd() * ALPHANUM.length)];
    const name = rnd() < 0.35 ? `${pick(FIRST_NAMES)} ${pick([...LAST_INITIALS])}.` : pick(FIRST_NAMES);
    // Ages 18–47, most in their twenties and thirties.
    const age = Math.min(60, Math.max(18, Math.round(18 + Math.abs(rnd() + rnd() + rnd() - 1.2) * 16)));
    const interests = some(INTERESTS, 3, 6);
    const tribes = some(TRIBES, 0, 2);
    const height = int(163, 198);
    const position = pick(POSITIONS);
    const build = pick(BUILDS);
    const promptIdx = some([...STARTER_PROMPTS.keys()], 2, 3);
    const bio = `${pick(BIO_OPENERS)} ${ownPick(BIO_MIDDLES)} Living in ${pick(city.area)}. ${pick(BIO_CLOSERS)}`;
    const prompts = promptIdx.map((p) => ({
      promptId: starterPromptId(p),
      question: STARTER_PROMPTS[p]!.text,
      answer: pick(ANSWERS[p]!),
    }));
    const low = Math.max(18, age - int(5, 12));
    const preferences: Preferences = {
      ...DEFAULT_PREFERENCES,
      ageRange: [low, Math.min(99, Math.max(low, age + int(5, 15)))],
      maxDistance: pick([10, 25, 50, 50, 100]),
    };
    // Within ~12 km of the centre (a degree of latitude is ~111 km).
    const r = Math.sqrt(rnd()) * 0.11;
    const theta = rnd() * 2 * Math.PI;
    const home = {
      lat: city.lat + r * Math.cos(theta),
      lng: city.lng + (r * Math.sin(theta)) / Math.cos((city.lat * Math.PI) / 180),
    };
    // Formerly the avatar's gradient: still drawn so every later draw stays what it was.
    rnd();
    const relationshipGoals = some(GOALS, 1, 2);
    const datingLookingFor = some(LOOKING_FOR, 1, 3);
    const nowLookingFor = some(NOW_LOOKING_FOR, 1, 2);
    const availability = pick(['offline', 'offline', 'available', 'busy', 'hosting', 'traveling'] as const);
    const rightNow = pick(RIGHT_NOW);

    // A face and two or three photos of it, so one man looks like one man; about half visible in
    // Hookup mode, a quarter in it now and half of those cruising (MAX_CRUISING at most); some online.
    const { face, used } = faces.next(age >= 36 || (age >= 28 && tribes.includes('Daddy')));
    const photoCount = chance(0.5) ? 3 : 2;
    // Men who share a face start from different variants; a photo in sunglasses is never the
    // first (the grid's), and a face has one without (its variants stand in three scenes of five).
    const order = Array.from({ length: VARIANTS }, (_, k) => (used + k) % VARIANTS);
    const lead = order.find((v) => !lookOf(faceOf(face), v).sunglasses) ?? order[0]!;
    const variants = [lead, ...order.filter((v) => v !== lead)].slice(0, photoCount);
    const showInNow = chance(0.55);
    const inNow = showInNow && chance(0.45);
    const cruising = inNow && chance(0.5) && cruisers < MAX_CRUISING;
    if (cruising) cruisers += 1;
    const online = chance(inNow ? 0.7 : 0.25);
    const seenMinutesAgo = online ? Math.floor(own() * 5) : 45 + Math.floor(own() ** 2 * 6 * 24 * 60);
    const tierDraw = own();
    const tier = cruising ? 'platinum' : tierDraw < 0.1 ? 'premium' : tierDraw < 0.14 ? 'platinum' : 'free';
    const activeLine = ownPick(RIGHT_NOW_ACTIVE);
    users.push({
      id,
      anonymousId: anon,
      displayName: name,
      age,
      bio,
      interests,
      tribes,
      preferences,
      home,
      face,
      variants,
      tier,
      showInNow,
      inNow,
      cruising,
      online,
      seenMinutesAgo,
      datingProfile: {
        ...DEFAULT_DATING_PROFILE,
        prompts,
        bio,
        interests,
        relationshipGoals,
        lookingFor: datingLookingFor,
      },
      nowProfile: {
        ...DEFAULT_NOW_PROFILE,
        quickStats: { build, height },
        position,
        tribes,
        lookingFor: inNow && !nowLookingFor.includes('Right now') ? ['Right now', ...nowLookingFor] : nowLookingFor,
        availability: inNow ? (availability === 'offline' || availability === 'busy' ? 'available' : availability) : availability,
        rightNow: inNow ? (rightNow ?? activeLine) : rightNow,
        aboutMe: bio,
      },
    });
  }
  return users;
}

/**
 * Hands out faces: the first of a seed's men all get different ones (in an order shuffled by the
 * seed), the mature faces (grey hair) to the older men; once all are taken they come round again,
 * each time from another of the face's variants.
 */
function faceDealer(seed: number) {
  const rnd = mulberry32(seed ^ 0x0fac_e5ed);
  const shuffled = (list: number[]) => {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  };
  const all = Array.from({ length: FACE_COUNT }, (_, f) => f);
  const groups = {
    young: shuffled(all.filter((f) => !faceOf(f).mature)),
    mature: shuffled(all.filter((f) => faceOf(f).mature)),
  };
  const dealt = { young: 0, mature: 0 };
  const uses = new Map<number, number>();
  return {
    next(mature: boolean): { face: number; used: number } {
      const g = mature ? 'mature' : 'young';
      const face = groups[g][dealt[g]++ % groups[g].length]!;
      const used = uses.get(face) ?? 0;
      uses.set(face, used + 1);
      return { face, used };
    },
    /** A face the first men of a world do not have (the last young one dealt). */
    spare(): number {
      return groups.young[groups.young.length - 1]!;
    },
  };
}

/** Which of these users are already in the database. */
async function existingIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db
      .selectFrom('users')
      .select('id')
      .where('id', 'in', ids.slice(i, i + 1000))
      .execute();
    for (const r of rows) found.add(r.id);
  }
  return found;
}

/** A stored photo of a demo account: the portrait's file and thumbnail under his own keys. */
interface DemoPhoto {
  id: string;
  key: string;
  width: number;
  height: number;
  bytes: number;
}

/**
 * Stores a man's portraits as profile photos are stored (photos/<user>/<name>.webp, its grid
 * thumbnail beside it as <name>.t.webp): the first man with a portrait gets it written, the next
 * ones a copy of his (a hard link on local disk), so thousands of men cost a pool of files.
 */
class PhotoWriter {
  private readonly firstKey = new Map<string, string>();

  constructor(
    private readonly storage: Storage,
    private readonly portraits: PortraitPool,
  ) {}

  async write(userId: string, face: number, variants: readonly number[]): Promise<DemoPhoto[]> {
    const photos: DemoPhoto[] = [];
    for (const [k, variant] of variants.entries()) {
      const p = await this.portraits.get(face, variant);
      const key = `photos/${userId}/portrait-${face}-${variant}.webp`;
      const first = this.firstKey.get(`${face}/${variant}`);
      if (first) {
        await this.storage.copy(first, key);
        await this.storage.copy(thumbnailKey(first), thumbnailKey(key));
      } else {
        await this.storage.put(key, p.photo, 'image/webp');
        await this.storage.put(thumbnailKey(key), p.thumbnail, 'image/webp');
        this.firstKey.set(`${face}/${variant}`, key);
      }
      photos.push({ id: `${userId}-photo-${k + 1}`, key, width: p.width, height: p.height, bytes: p.photo.length });
    }
    return photos;
  }
}

interface AccountRow {
  user: NewUser;
  photos: DemoPhoto[];
  prompts: readonly { promptId: string }[];
}

/**
 * Inserts accounts that are not there yet with their settings, identity mapping and photos, in
 * one transaction; returns the ids inserted. DO NOTHING keeps a concurrent seed run (or an
 * account edited since) intact.
 */
async function insertAccounts(db: Db, rows: readonly AccountRow[], now: Date): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  return db.transaction().execute(async (trx) => {
    const inserted = new Set(
      (
        await trx
          .insertInto('users')
          .values(rows.map((r) => r.user))
          .onConflict((oc) => oc.doNothing())
          .returning('id')
          .execute()
      ).map((r) => r.id),
    );
    const mine = rows.filter((r) => inserted.has(r.user.id));
    if (mine.length === 0) return inserted;
    await trx
      .insertInto('user_settings')
      .values(
        mine.map((r) => ({
          user_id: r.user.id,
          gender_preferences: '[]',
          relationship_status_preferences: '[]',
          location_sharing_consent: true,
          updated_at: now,
        })),
      )
      .execute();
    await trx
      .insertInto('identity_mappings')
      .values(
        mine.map((r) => ({
          id: r.user.anonymous_id!,
          email: r.user.email,
          user_id: r.user.id,
          registration_source: 'seed',
          previous_emails: '[]',
          previous_anonymous_ids: '[]',
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    await trx
      .insertInto('photos')
      .values(
        mine.flatMap((r) =>
          r.photos.map((p, position) => ({
            id: p.id,
            user_id: r.user.id,
            storage_key: p.key,
            width: p.width,
            height: p.height,
            bytes: p.bytes,
            position,
          })),
        ),
      )
      .execute();
    // Keep prompts.usage_count true: one use per answered prompt.
    const uses = new Map<string, number>();
    for (const r of mine) for (const p of r.prompts) uses.set(p.promptId, (uses.get(p.promptId) ?? 0) + 1);
    for (const [id, n] of uses) {
      await trx
        .updateTable('prompts')
        .set({ usage_count: sql`usage_count + ${n}` })
        .where('id', '=', id)
        .execute();
    }
    return inserted;
  });
}

function accountRow(
  u: Pick<DemoUser, 'id' | 'anonymousId' | 'displayName' | 'age' | 'bio' | 'interests' | 'tribes' | 'preferences'> & {
    email: string;
    tier: NewUser['subscription_tier'];
    datingProfile: DatingProfile;
    nowProfile: NowProfile;
    showInNow: boolean;
    inNow: boolean;
    online: boolean;
    seenMinutesAgo: number;
  },
  photos: DemoPhoto[],
  storage: Storage,
  passwordHash: string | null,
  now: Date,
): AccountRow {
  const selected = photos.map((p) => p.id);
  return {
    photos,
    prompts: u.datingProfile.prompts,
    user: {
      id: u.id,
      email: u.email,
      password_hash: passwordHash,
      google_sub: null,
      // Demo addresses (.invalid) can receive no mail: they count as confirmed.
      email_verified_at: now,
      anonymous_id: u.anonymousId,
      display_name: u.displayName,
      photo_url: photos[0] ? storage.url(photos[0].key) : null,
      subscription_tier: u.tier,
      onboarding_complete: true,
      age: u.age,
      bio: u.bio,
      interests: JSON.stringify(u.interests),
      intentions: JSON.stringify(u.datingProfile.relationshipGoals),
      selected_features: '[]',
      tribes: JSON.stringify(u.tribes),
      current_mode: u.inNow ? 'now' : 'dating',
      right_now_enabled: u.inNow && u.nowProfile.rightNow !== null,
      preferences: JSON.stringify(u.preferences),
      stats: JSON.stringify(DEFAULT_STATS),
      dating_profile: JSON.stringify({ ...u.datingProfile, selectedPhotos: selected }),
      now_profile: JSON.stringify({ ...u.nowProfile, selectedPhotos: selected }),
      mode_visibility: JSON.stringify({ ...DEFAULT_MODE_VISIBILITY, showInNow: u.showInNow }),
      is_online: u.online,
      last_seen: new Date(now.getTime() - u.seenMinutesAgo * 60_000),
      created_at: now,
      updated_at: now,
    },
  };
}

/**
 * Creates the demo men that do not exist yet, and (with a password) the demo viewer and the
 * picks of him; refreshes what goes stale (locations, presence, cruise sessions). Returns what
 * the world holds after the run.
 */
export async function seedDemoUsers(db: Db, storage: Storage, opts: SeedOptions, now: Date = new Date()): Promise<SeedResult> {
  const users = generate(opts);
  const portraits = opts.portraits ?? new PortraitPool();
  const renderedBefore = portraits.rendered;
  const passwordHash = opts.password ? await hashPassword(opts.password) : null;
  await seedStarterPrompts(db, now);
  const existing = await existingIds(
    db,
    users.map((u) => u.id),
  );
  const writer = new PhotoWriter(storage, portraits);
  let created = 0;
  const batchSize = 50;
  for (let start = 0; start < users.length; start += batchSize) {
    const batch = users.slice(start, start + batchSize).filter((u) => !existing.has(u.id));
    if (batch.length === 0) continue;
    // The batch's portraits render side by side (the pool keeps a few going at once).
    await Promise.all(batch.flatMap((u) => u.variants.map((v) => portraits.get(u.face, v))));
    const rows: AccountRow[] = [];
    for (const u of batch) {
      const photos = await writer.write(u.id, u.face, u.variants);
      rows.push(accountRow({ ...u, email: demoEmail(u.id) }, photos, storage, passwordHash, now));
    }
    created += (await insertAccounts(db, rows, now)).size;
  }
  // Men seeded before they could sign in get the password now (never a changed one).
  if (passwordHash) {
    await db
      .updateTable('users')
      .set({ password_hash: passwordHash })
      .where('id', 'like', 'demo-%')
      .where('email', 'like', '%@demo.fmk.invalid')
      .where('password_hash', 'is', null)
      .execute();
  }

  const city = DEMO_CITIES[opts.city]!;
  const viewer = passwordHash
    ? await seedViewer(db, storage, writer, passwordHash, faceDealer(opts.seed).spare(), city, now)
    : null;
  const present = await existingIds(
    db,
    users.map((u) => u.id),
  );
  const men = users.filter((u) => present.has(u.id));
  await seedDemoLocations(db, men, viewer ? { id: DEMO_VIEWER.id, home: { lat: city.lat, lng: city.lng } } : null, now);
  await refreshPresence(db, men, now);
  const cruising = await startCruising(db, men, now);
  const likedBy = viewer ? await pickTheViewer(db, men, { lat: city.lat, lng: city.lng }, now) : [];
  return {
    created,
    existing: users.length - created,
    city: opts.city,
    homes: users.map((u) => ({ id: u.id, ...u.home })),
    world: {
      men: men.length,
      showInNow: men.filter((u) => u.showInNow).length,
      inNow: men.filter((u) => u.inNow).length,
      online: men.filter((u) => u.online).length,
      cruising,
    },
    portraitsRendered: portraits.rendered - renderedBefore,
    viewer: viewer ? { ...viewer, likedBy } : null,
  };
}

/** The demo viewer: made once, like a man who finished onboarding; Premium, so Likes shows who picked him. */
async function seedViewer(
  db: Db,
  storage: Storage,
  writer: PhotoWriter,
  passwordHash: string,
  face: number,
  city: (typeof DEMO_CITIES)[string],
  now: Date,
): Promise<Omit<SeededViewer, 'likedBy'> | null> {
  const { id, email, displayName } = DEMO_VIEWER;
  const taken = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (taken && taken.id !== id) {
    console.warn(`The demo viewer's email ${email} belongs to another account: no demo viewer made.`);
    return null;
  }
  if (taken) return { id, email, created: false };
  const bio = `The demo account. Living in ${city.area[0]}. Men nearby have already picked me: pick them back.`;
  const prompts = [0, 4].map((p) => ({
    promptId: starterPromptId(p),
    question: STARTER_PROMPTS[p]!.text,
    answer: ANSWERS[p]![0]!,
  }));
  const photos = await writer.write(id, face, [0, 1]);
  const row = accountRow(
    {
      id,
      email,
      anonymousId: 'anon_demoviewer00',
      displayName,
      age: 30,
      bio,
      interests: ['Coffee', 'Hiking', 'Film'],
      tribes: [],
      preferences: DEFAULT_PREFERENCES,
      tier: 'premium',
      datingProfile: {
        ...DEFAULT_DATING_PROFILE,
        prompts,
        bio,
        interests: ['Coffee', 'Hiking', 'Film'],
        relationshipGoals: ['Figuring it out'],
        lookingFor: ['Dates', 'Chat'],
      },
      nowProfile: {
        ...DEFAULT_NOW_PROFILE,
        quickStats: { build: 'Athletic', height: 180 },
        position: 'Vers',
        lookingFor: ['Chat', 'Drinks'],
        aboutMe: bio,
      },
      showInNow: true,
      inNow: false,
      online: false,
      seenMinutesAgo: 60,
    },
    photos,
    storage,
    passwordHash,
    now,
  );
  const inserted = await insertAccounts(db, [row], now);
  return { id, email, created: inserted.has(id) };
}

/**
 * Each demo man's home as his grid location (the viewer's at the city centre): the centre of its
 * cell only, listed at his place (a shift of his own), as for every user, in the mode he is in. A rerun refreshes lastUpdated, which keeps
 * them in the grid (and the cruisers in the nearby list, which wants a fresh location).
 */
async function seedDemoLocations(
  db: Db,
  men: readonly DemoUser[],
  viewer: { id: string; home: { lat: number; lng: number } } | null,
  now: Date,
): Promise<void> {
  const located = [
    ...men.map((u) => ({ id: u.id, home: u.home, mode: u.inNow ? 'now' : 'dating' })),
    ...(viewer ? [{ ...viewer, mode: 'dating' }] : []),
  ];
  const rows = located.map((u) => {
    const p = snap(u.home);
    const c = cellOf(u.home);
    const shift = newPlaceShift();
    return sql`(${u.id}, ${p.lat}::float8, ${p.lng}::float8, ${shift.lat}::float8, ${shift.lng}::float8, ${listedGeo(u.id, p, shift, false)}::cube, ${c.row}::int, ${c.col}::int, true, ${u.mode}, ${now}::timestamptz)`;
  });
  for (let i = 0; i < rows.length; i += 200) {
    await sql`insert into user_locations (user_id, lat, lng, shift_lat, shift_lng, geo, cell_row, cell_col, is_active, mode, last_updated)
      values ${sql.join(rows.slice(i, i + 200))}
      on conflict (user_id) do update set last_updated = excluded.last_updated`.execute(db);
  }
}

/**
 * Who is online and when each man was last seen, as the world has it at `now` (new men have it
 * from their insert; a rerun sets it again). A man someone is signed in as with an open socket is
 * left to the live presence.
 */
async function refreshPresence(db: Db, men: readonly DemoUser[], now: Date): Promise<void> {
  for (let i = 0; i < men.length; i += 500) {
    const values = men
      .slice(i, i + 500)
      .map((u) => sql`(${u.id}, ${u.online}::boolean, ${new Date(now.getTime() - u.seenMinutesAgo * 60_000)}::timestamptz)`);
    await sql`update users set is_online = v.online, last_seen = v.seen
      from (values ${sql.join(values)}) as v(id, online, seen)
      where users.id = v.id
        and not exists (select 1 from live_connections lc where lc.user_id = users.id)`.execute(db);
  }
}

/**
 * Starts a cruise session (30 minutes, through the cruise service: counters, Hookup mode) for each
 * cruising man who has none running. Returns how many cruise now. A man whose account was
 * changed since (cruising off, a tier with a quota used up) is left as he is.
 */
async function startCruising(db: Db, men: readonly DemoUser[], now: Date): Promise<number> {
  const sessions = new CruiseSessionService({ db, clock: { now: () => now } });
  let cruising = 0;
  for (const u of men.filter((m) => m.cruising)) {
    try {
      const cruiser = await loadActor(db, u.id);
      if (!cruiser) continue;
      const status = await sessions.start(cruiser, { rightNow: u.nowProfile.rightNow ?? undefined });
      if (status.session) cruising += 1;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
  }
  return cruising;
}

/**
 * The men nearest the viewer pick him, through the game (real selections, stats, and a match when
 * he has picked them already). Each pick has a fixed client id, so a rerun replays it and changes
 * nothing. A man the viewer has blocked, or who can no longer pick, is skipped.
 */
async function pickTheViewer(
  db: Db,
  men: readonly DemoUser[],
  home: { lat: number; lng: number },
  now: Date,
): Promise<SeededViewer['likedBy']> {
  const game = new GameService({ db, clock: { now: () => now }, bus: new LocalBus() });
  const nearest = [...men]
    .sort((a, b) => distanceKm(snap(home), snap(a.home)) - distanceKm(snap(home), snap(b.home)) || a.id.localeCompare(b.id))
    .slice(0, VIEWER_LIKERS);
  const likedBy: SeededViewer['likedBy'] = [];
  for (const [k, u] of nearest.entries()) {
    const action = k % 2 === 0 ? 'marry' : 'fuck';
    try {
      const chooser = await loadActor(db, u.id);
      if (!chooser) continue;
      await game.select(chooser, { targetId: DEMO_VIEWER.id, action, super: false, clientId: `seed-pick-${u.id}` });
      likedBy.push({ id: u.id, displayName: u.displayName, email: demoEmail(u.id), action });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
  }
  return likedBy;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const count = Number.parseInt(process.env.SEED_COUNT ?? '300', 10);
  const seed = Number.parseInt(process.env.SEED ?? '42', 10);
  const cityName = process.env.SEED_CITY ?? 'San Francisco';
  const city = Object.keys(DEMO_CITIES).find((c) => c.toLowerCase() === cityName.trim().toLowerCase());
  if (!city) throw new ConfigError(`Unknown SEED_CITY "${cityName}". Choose one of: ${Object.keys(DEMO_CITIES).join(', ')}`);
  if (!Number.isInteger(count) || count < 1 || count > 9999)
    throw new ConfigError('SEED_COUNT must be a whole number from 1 to 9999');
  if (!Number.isInteger(seed)) throw new ConfigError('SEED must be a whole number');
  // Demo accounts sign in with a known password: never by default in production.
  const given = process.env.SEED_PASSWORD;
  if (given !== undefined && given.length < MIN_PASSWORD_LENGTH)
    throw new ConfigError(`SEED_PASSWORD must be at least ${MIN_PASSWORD_LENGTH} characters`);
  const password = given ?? (config.env === 'production' ? null : DEMO_PASSWORD);

  const { dbDir } = config;
  // PGlite is single-process and does not lock its folder: opening it beside a running server
  // would corrupt it. An open PGlite keeps postmaster.pid; a clean shutdown removes it.
  if (!config.databaseUrl && existsSync(path.join(dbDir, 'postmaster.pid'))) {
    console.error(
      `The embedded database in ${dbDir} is in use: stop the server (npm start) and run npm run seed again (if no server is running, delete ${path.join(dbDir, 'postmaster.pid')}).`,
    );
    process.exit(1);
  }
  const started = Date.now();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: dbDir });
  try {
    await migrateToLatest(database.db);
    const storage = new LocalDiskStorage(config.filesDir);
    const r = await seedDemoUsers(database.db, storage, { count, city, seed, password });
    const w = r.world;
    const where = config.databaseUrl ? 'the PostgreSQL database' : `the embedded database in ${dbDir}`;
    console.log(
      [
        `Seeded ${r.created} new demo men (${r.existing} already there) around ${city} in ${where}, seed ${seed}, in ${((Date.now() - started) / 1000).toFixed(1)} s (${r.portraitsRendered} portraits rendered, the rest from the cache).`,
        `Of ${w.men} demo men: ${w.showInNow} show in Hookup mode, ${w.inNow} are in it now, ${w.online} online, ${w.cruising} cruising (for 30 minutes: run the seed again to start them again).`,
      ].join('\n'),
    );
    if (r.viewer && password) {
      const picks = r.viewer.likedBy.map((l) => `  ${l.displayName} (${l.email}) picked ${l.action}`);
      console.log(
        [
          '',
          `Sign in as the demo viewer: ${r.viewer.email} / ${given ? '(your SEED_PASSWORD)' : password}`,
          `Already picked him (Likes lists them; pick one back for the match):`,
          ...picks,
          `Every demo man signs in too, with his email (demo-0001@demo.fmk.invalid, ...) and the same password:`,
          'use a second browser (or a private window) to play the other side.',
        ].join('\n'),
      );
    } else {
      console.log('No demo account can sign in (production without SEED_PASSWORD).');
    }
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
}
