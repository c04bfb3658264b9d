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
  type NowProfile,
  POSITIONS,
  type Preferences,
  placeholderAvatarSvg,
  STARTER_PROMPTS,
  snap,
} from '@fmk/core';
import { sql } from 'kysely';
import sharp from 'sharp';
import { type Db, migrateToLatest, openDatabase } from './db/index.ts';
import type { NewUser } from './db/schema.ts';
import { userGeo } from './modules/discovery/repo.ts';
import { seedStarterPrompts, starterPromptId } from './modules/prompts/repo.ts';
import { ConfigError, loadConfig } from './platform/config.ts';
import { LocalDiskStorage, type Storage } from './platform/storage.ts';

/**
 * Demo data (issue 2 item 9): believable users with ids `demo-0001`… so a new user sees a living
 * app. Deterministic for a given SEED, idempotent (existing demo users are left alone), and no
 * demo user can sign in (no password, an email under the reserved .invalid domain).
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
}

export interface SeedResult {
  created: number;
  existing: number;
  city: string;
  /** Home points before snapping (the stored location is the centre of each one's cell). */
  homes: { id: string; lat: number; lng: number }[];
}

/** mulberry32: a tiny, well-mixed 32-bit PRNG; the same seed gives the same demo world. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST_NAMES = [
  'Alex',
  'Ben',
  'Carlos',
  'Daniel',
  'Eli',
  'Felix',
  'Gabe',
  'Hiro',
  'Isaac',
  'Jamal',
  'Kai',
  'Leo',
  'Marco',
  'Nate',
  'Omar',
  'Pablo',
  'Quinn',
  'Rafael',
  'Sam',
  'Theo',
  'Umar',
  'Victor',
  'Will',
  'Xavier',
  'Yusuf',
  'Zach',
  'Andre',
  'Bastian',
  'Chris',
  'Dev',
  'Emeka',
  'Finn',
  'Gio',
  'Hamza',
  'Ivan',
  'Jonah',
  'Kenji',
  'Luca',
  'Mateo',
  'Niko',
  'Oscar',
  'Patrick',
  'Ravi',
  'Sean',
  'Tariq',
  'Tomás',
  'Wes',
  'Yann',
  'Arjun',
  'Brandon',
  'Cody',
  'Diego',
  'Ethan',
  'Francisco',
  'Grant',
  'Hugo',
  'Jin',
  'Kwame',
  'Liam',
  'Malik',
  'Noah',
  'Owen',
  'Pedro',
  'Reza',
  'Santiago',
  'Tyler',
  'Vikram',
  'Wei',
  'Adrian',
  'Bilal',
  'Cameron',
  'Dmitri',
  'Elijah',
  'Jesse',
  'Jordan',
  'Lukas',
  'Mikael',
  'Rohan',
  'Stefan',
  'Tobias',
];
const LAST_INITIALS = 'ABCDEFGHJKLMNOPRSTVW';
const BIO_OPENERS = [
  'Coffee first, then adventures.',
  'Weekday engineer, weekend hiker.',
  'Nurse with a soft spot for terrible puns.',
  'Recovering perfectionist. Still make a mean risotto.',
  'Designer who talks too much about typefaces.',
  'Gym in the morning, bookshop in the evening.',
  'Teacher by day, DJ by (some) nights.',
  'Just moved here and keen to explore.',
  'Dog dad. Plant dad. Trying to be a good cook.',
  'Runner, reader, occasional karaoke menace.',
  'Chef who never cooks at home.',
  'Lawyer who would rather be sailing.',
];
const BIO_CLOSERS = [
  'Say hi if you know a good taco spot.',
  'Looking for someone to try new restaurants with.',
  'Here for good conversation and see where it goes.',
  'Bonus points if you can beat me at Mario Kart.',
  'Honest, kind and a little bit nerdy.',
  'Tell me your favourite album.',
  'Not great at texting, better in person.',
  'Open to dates, friends and whatever clicks.',
];
const INTERESTS = [
  'Hiking',
  'Cooking',
  'Climbing',
  'Cycling',
  'Yoga',
  'Running',
  'Gaming',
  'Board games',
  'Live music',
  'Techno',
  'Theatre',
  'Film',
  'Photography',
  'Travel',
  'Reading',
  'Art',
  'Design',
  'Coffee',
  'Wine',
  'Craft beer',
  'Swimming',
  'Tennis',
  'Football',
  'Basketball',
  'Drag',
  'Fashion',
  'Volunteering',
  'Dogs',
  'Cats',
  'Gardening',
  'Skiing',
  'Surfing',
  'Anime',
  'Podcasts',
];
const TRIBES = [
  'Bear',
  'Clean-Cut',
  'Daddy',
  'Discreet',
  'Geek',
  'Jock',
  'Leather',
  'Otter',
  'Poz',
  'Rugged',
  'Trans',
  'Twink',
  'Cub',
];
const BUILDS = ['Slim', 'Average', 'Athletic', 'Muscular', 'Stocky', 'Large'];
const GOALS = ['Something serious', 'Dating', 'Friends first', 'Open to anything', 'Casual'];
const LOOKING_FOR = ['Chat', 'Dates', 'Friends', 'Networking', 'Relationship', 'Right now'];
const RIGHT_NOW = ['Up for a drink tonight', 'At the gym, then free', 'Grabbing dinner nearby', null, null];
const ANSWERS: string[][] = [
  ['you laugh at your own jokes.', 'you like long walks that end at a bakery.', "you don't mind my 6am alarms."],
  ['farmers market, a long brunch, then a nap.', 'a hike, then pizza on the couch.', 'records, coffee and no plans.'],
  ['synthesisers.', 'maps and train timetables.', 'Roman history.', 'houseplants, honestly.'],
  ['loyal and a little chaotic.', 'the one who plans the trips.', 'calm in a crisis.'],
  ['a walk and a coffee: low pressure, lots of talking.', 'a tiny restaurant with a big menu.', 'mini golf. I will win.'],
  ['kindness to waiters.', 'asking good questions.', 'being on time.'],
  ['my sourdough starter.', 'the best ramen in town.', 'the last season of my favourite show.'],
  ['geese.', 'deep water.', 'running out of phone battery.'],
  ['is curious and kind.', 'texts back.', 'wants to build something real.'],
  ['good coffee and honesty.', 'make me laugh.', 'a handwritten note.'],
];
const ALPHANUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

interface DemoUser {
  id: string;
  anonymousId: string;
  displayName: string;
  age: number;
  bio: string;
  interests: string[];
  tribes: string[];
  height: number;
  position: (typeof POSITIONS)[number];
  build: string;
  datingProfile: DatingProfile;
  nowProfile: NowProfile;
  preferences: Preferences;
  home: { lat: number; lng: number };
}

/** Every demo user from the PRNG, generated in order whether or not it already exists. */
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
  const users: DemoUser[] = [];
  for (let i = 1; i <= opts.count; i++) {
    const id = `demo-${String(i).padStart(4, '0')}`;
    let anon = 'anon_';
    for (let k = 0; k < 12; k++) anon += ALPHANUM[Math.floor(rnd() * ALPHANUM.length)];
    const name = rnd() < 0.35 ? `${pick(FIRST_NAMES)} ${pick([...LAST_INITIALS])}.` : pick(FIRST_NAMES);
    // Ages 18–60, most in their twenties and thirties.
    const age = Math.min(60, Math.max(18, Math.round(18 + Math.abs(rnd() + rnd() + rnd() - 1.2) * 16)));
    const interests = some(INTERESTS, 3, 6);
    const tribes = some(TRIBES, 0, 2);
    const height = int(163, 198);
    const position = pick(POSITIONS);
    const build = pick(BUILDS);
    const promptIdx = some([...STARTER_PROMPTS.keys()], 2, 3);
    const bio = `${pick(BIO_OPENERS)} Living in ${pick(city.area)}. ${pick(BIO_CLOSERS)}`;
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
    // Formerly the avatar's gradient (now chosen from the id by core): still drawn so every later
    // draw, and so every later demo user, stays what it was for a given SEED.
    rnd();
    users.push({
      id,
      anonymousId: anon,
      displayName: name,
      age,
      bio,
      interests,
      tribes,
      height,
      position,
      build,
      preferences,
      home,
      datingProfile: {
        ...DEFAULT_DATING_PROFILE,
        prompts,
        bio,
        interests,
        relationshipGoals: some(GOALS, 1, 2),
        lookingFor: some(LOOKING_FOR, 1, 3),
      },
      nowProfile: {
        ...DEFAULT_NOW_PROFILE,
        quickStats: { build, height },
        position,
        tribes,
        lookingFor: some(LOOKING_FOR, 1, 2),
        availability: pick(['offline', 'offline', 'available', 'busy', 'hosting', 'traveling'] as const),
        rightNow: pick(RIGHT_NOW),
        aboutMe: bio,
      },
    });
  }
  return users;
}

const AVATAR_SIZE = 384;

/** The demo user's avatar: core's placeholder (one implementation with the web), as WebP. */
export async function renderAvatar(seed: string, name: string): Promise<{ data: Buffer; width: number; height: number }> {
  const svg = placeholderAvatarSvg(seed, name, AVATAR_SIZE);
  // effort 2: the seed renders hundreds of these and the default effort doubles the time for ~1% smaller files.
  const data = await sharp(Buffer.from(svg)).removeAlpha().webp({ quality: 80, effort: 2 }).toBuffer();
  return { data, width: AVATAR_SIZE, height: AVATAR_SIZE };
}

/** Which of these demo users are already in the database. */
async function existingIds(db: Db, users: readonly { id: string }[]): Promise<Set<string>> {
  if (users.length === 0) return new Set();
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where(
      'id',
      'in',
      users.map((u) => u.id),
    )
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Creates the demo users that do not exist yet; returns how many were created. */
export async function seedDemoUsers(db: Db, storage: Storage, opts: SeedOptions, now: Date = new Date()): Promise<SeedResult> {
  const users = generate(opts);
  await seedStarterPrompts(db, now);
  const existing = await existingIds(db, users);
  let created = 0;
  const batchSize = 50;
  for (let start = 0; start < users.length; start += batchSize) {
    const batch = users.slice(start, start + batchSize).filter((u) => !existing.has(u.id));
    if (batch.length === 0) continue;
    const avatars = new Map(await Promise.all(batch.map(async (u) => [u.id, await renderAvatar(u.id, u.displayName)] as const)));
    for (const u of batch) await storage.put(`photos/${u.id}/avatar.webp`, avatars.get(u.id)!.data, 'image/webp');
    await db.transaction().execute(async (trx) => {
      const rows: NewUser[] = batch.map((u) => ({
        id: u.id,
        email: `${u.id}@demo.fmk.invalid`,
        password_hash: null,
        google_sub: null,
        anonymous_id: u.anonymousId,
        display_name: u.displayName,
        photo_url: storage.url(`photos/${u.id}/avatar.webp`),
        subscription_tier: 'free',
        onboarding_complete: true,
        age: u.age,
        bio: u.bio,
        interests: JSON.stringify(u.interests),
        intentions: JSON.stringify(u.datingProfile.relationshipGoals),
        selected_features: '[]',
        tribes: JSON.stringify(u.tribes),
        preferences: JSON.stringify(u.preferences),
        stats: JSON.stringify(DEFAULT_STATS),
        dating_profile: JSON.stringify({ ...u.datingProfile, selectedPhotos: [`${u.id}-avatar`] }),
        now_profile: JSON.stringify({ ...u.nowProfile, selectedPhotos: [`${u.id}-avatar`] }),
        mode_visibility: JSON.stringify(DEFAULT_MODE_VISIBILITY),
        created_at: now,
        updated_at: now,
      }));
      // DO NOTHING keeps a concurrent seed run (or a demo user edited since) intact.
      const inserted = new Set(
        (
          await trx
            .insertInto('users')
            .values(rows)
            .onConflict((oc) => oc.doNothing())
            .returning('id')
            .execute()
        ).map((r) => r.id),
      );
      const mine = batch.filter((u) => inserted.has(u.id));
      if (mine.length === 0) return;
      await trx
        .insertInto('user_settings')
        .values(
          mine.map((u) => ({
            user_id: u.id,
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
          mine.map((u) => ({
            id: u.anonymousId,
            email: `${u.id}@demo.fmk.invalid`,
            user_id: u.id,
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
          mine.map((u) => ({
            id: `${u.id}-avatar`,
            user_id: u.id,
            storage_key: `photos/${u.id}/avatar.webp`,
            width: AVATAR_SIZE,
            height: AVATAR_SIZE,
            bytes: avatars.get(u.id)!.data.length,
            position: 0,
          })),
        )
        .execute();
      // Keep prompts.usage_count true: one use per answered prompt.
      const uses = new Map<string, number>();
      for (const u of mine) for (const p of u.datingProfile.prompts) uses.set(p.promptId, (uses.get(p.promptId) ?? 0) + 1);
      for (const [id, n] of uses) {
        await trx
          .updateTable('prompts')
          .set({ usage_count: sql`usage_count + ${n}` })
          .where('id', '=', id)
          .execute();
      }
      created += mine.length;
    });
  }
  await seedDemoLocations(db, users, now);
  return { created, existing: users.length - created, city: opts.city, homes: users.map((u) => ({ id: u.id, ...u.home })) };
}

/**
 * Each demo user's home as his grid location: the centre of its cell only, as for every user.
 * A rerun refreshes lastUpdated, which keeps demo users out of the grid's staleness rule.
 */
async function seedDemoLocations(db: Db, users: readonly DemoUser[], now: Date): Promise<void> {
  const present = await existingIds(db, users);
  const rows = users
    .filter((u) => present.has(u.id))
    .map((u) => {
      const p = snap(u.home);
      const c = cellOf(u.home);
      return sql`(${u.id}, ${p.lat}::float8, ${p.lng}::float8, ${userGeo(u.id, p)}::cube, ${c.row}::int, ${c.col}::int, true, 'dating', ${now}::timestamptz)`;
    });
  for (let i = 0; i < rows.length; i += 200) {
    await sql`insert into user_locations (user_id, lat, lng, geo, cell_row, cell_col, is_active, mode, last_updated)
      values ${sql.join(rows.slice(i, i + 200))}
      on conflict (user_id) do update set last_updated = excluded.last_updated`.execute(db);
  }
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
    const r = await seedDemoUsers(database.db, storage, { count, city, seed });
    console.log(
      `Seeded ${r.created} new demo users (${r.existing} already there) around ${city} in the ${database.kind} database, seed ${seed}, in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
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
