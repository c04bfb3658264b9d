import { cellOf, DEFAULT_DATING_PROFILE, DEFAULT_STATS, POSITIONS, snap } from '@fmk/core';
import type { DB } from '@fmk/server/src/db/index.ts';
import { userGeo } from '@fmk/server/src/platform/geo.ts';
import { mulberry32 } from '@fmk/server/src/seed.ts';
import { type Kysely, sql } from 'kysely';

/**
 * Grid benchmark data: N complete users clustered around five cities (a normal spread
 * of ~8 km around each centre, a long tail out to ~60 km), with a fixed-seed PRNG so every run
 * sees the same world. Rows go in as column arrays through `unnest` (one statement per 20,000
 * users), so a million users load in about a minute on PostgreSQL. Works on PGlite too.
 */
export const BENCH_CITIES = [
  { name: 'San Francisco', lat: 37.7749, lng: -122.4194 },
  { name: 'New York', lat: 40.7128, lng: -74.006 },
  { name: 'London', lat: 51.5074, lng: -0.1278 },
  { name: 'Berlin', lat: 52.52, lng: 13.405 },
  { name: 'Sydney', lat: -33.8688, lng: 151.2093 },
] as const;

export const benchUserId = (i: number) => `b${String(i).padStart(7, '0')}`;
const TRIBES = ['Bear', 'Jock', 'Otter', 'Geek', 'Twink', 'Daddy', 'Cub', 'Leather'];
const BATCH = 20_000;

export interface GeneratedWorld {
  users: number;
  seconds: number;
}

/** Fills an empty, migrated schema. `now` dates every location (all fresh). */
export async function generateUsers(db: Kysely<DB>, n: number, seed: number, now: Date): Promise<GeneratedWorld> {
  const t0 = performance.now();
  const rnd = mulberry32(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  // The GiST index is built once at the end: much faster than growing it row by row.
  await sql`drop index if exists user_locations_geo`.execute(db);
  for (let start = 0; start < n; start += BATCH) {
    const c = {
      id: [] as string[],
      age: [] as number[],
      mode: [] as string[],
      online: [] as boolean[],
      onboarded: [] as boolean[],
      active: [] as boolean[],
      inDating: [] as boolean[],
      inNow: [] as boolean[],
      position: [] as string[],
      height: [] as number[],
      tribe: [] as string[],
      rightNow: [] as boolean[],
      incognito: [] as boolean[],
      showOnline: [] as boolean[],
      lat: [] as number[],
      lng: [] as number[],
      geo: [] as string[],
      row: [] as number[],
      col: [] as number[],
      locActive: [] as boolean[],
      updatedAgoS: [] as number[],
    };
    for (let i = start; i < Math.min(n, start + BATCH); i++) {
      const city = BENCH_CITIES[i % BENCH_CITIES.length]!;
      // 90% within a normal spread of ~8 km, 10% in the suburbs out to ~60 km.
      const spreadKm = rnd() < 0.9 ? 8 : 30;
      const dLat = (gauss() * spreadKm) / 111.32;
      const dLng = (gauss() * spreadKm) / (111.32 * Math.cos((city.lat * Math.PI) / 180));
      const raw = { lat: city.lat + dLat, lng: city.lng + dLng };
      const p = snap(raw);
      const cell = cellOf(raw);
      c.id.push(benchUserId(i));
      c.age.push(18 + Math.min(50, Math.floor(Math.abs(gauss()) * 14)));
      c.mode.push(rnd() < 0.8 ? 'dating' : 'now');
      c.online.push(rnd() < 0.2);
      c.onboarded.push(rnd() < 0.97);
      c.active.push(rnd() < 0.99);
      c.inDating.push(rnd() < 0.9);
      c.inNow.push(rnd() < 0.35);
      c.position.push(POSITIONS[Math.floor(rnd() * POSITIONS.length)]!);
      c.height.push(160 + Math.floor(rnd() * 40));
      c.tribe.push(TRIBES[Math.floor(rnd() * TRIBES.length)]!);
      c.rightNow.push(rnd() < 0.1);
      c.incognito.push(rnd() < 0.02);
      c.showOnline.push(rnd() < 0.9);
      c.lat.push(p.lat);
      c.lng.push(p.lng);
      c.geo.push(userGeo(benchUserId(i), p));
      c.row.push(cell.row);
      c.col.push(cell.col);
      c.locActive.push(rnd() < 0.95);
      c.updatedAgoS.push(Math.floor(rnd() * 20 * 86_400));
    }
    await db.transaction().execute(async (trx) => {
      await sql`
        insert into users (id, email, display_name, photo_url, subscription_tier, is_active, onboarding_complete, age,
          bio, current_mode, right_now_enabled, is_online, last_seen, preferences, stats, dating_profile, now_profile,
          mode_visibility, created_at, updated_at)
        select t.id, t.id || '@bench.fmk.invalid', 'User ' || t.id, '/files/photos/' || t.id || '/a.webp', 'free',
          t.active, t.onboarded, t.age, 'Bench user', t.mode, t.right_now, t.online, ${now}::timestamptz,
          ${JSON.stringify({ ageRange: [18, 60], maxDistance: 50, showMe: 'everyone', units: 'imperial' })}::jsonb,
          ${JSON.stringify(DEFAULT_STATS)}::jsonb, ${JSON.stringify(DEFAULT_DATING_PROFILE)}::jsonb,
          jsonb_build_object('selectedPhotos', '[]'::jsonb, 'quickStats', jsonb_build_object('build', null, 'height', t.height),
            'position', t.position, 'lookingFor', '[]'::jsonb, 'availability', 'offline',
            'rightNow', case when t.right_now then 'Up for a drink' end, 'aboutMe', '', 'tribes', jsonb_build_array(t.tribe),
            'kinks', '[]'::jsonb, 'safetyInfo', ''),
          jsonb_build_object('showInDating', t.in_dating, 'showInNow', t.in_now, 'datingVisibleToAll', true,
            'nowVisibleToAll', false, 'hideFromMatches', false),
          ${now}::timestamptz, ${now}::timestamptz
        from unnest(${c.id}::text[], ${c.age}::int[], ${c.mode}::text[], ${c.online}::bool[], ${c.onboarded}::bool[],
          ${c.active}::bool[], ${c.inDating}::bool[], ${c.inNow}::bool[], ${c.position}::text[], ${c.height}::int[],
          ${c.tribe}::text[], ${c.rightNow}::bool[])
          as t(id, age, mode, online, onboarded, active, in_dating, in_now, position, height, tribe, right_now)`.execute(trx);
      await sql`
        insert into user_settings (user_id, gender_preferences, relationship_status_preferences, incognito_mode,
          show_online_status, location_sharing_consent, updated_at)
        select t.id, '[]', '[]', t.incognito, t.show_online, true, ${now}::timestamptz
        from unnest(${c.id}::text[], ${c.incognito}::bool[], ${c.showOnline}::bool[]) as t(id, incognito, show_online)`.execute(
        trx,
      );
      await sql`
        insert into user_locations (user_id, lat, lng, geo, cell_row, cell_col, is_active, mode, last_updated)
        select t.id, t.lat, t.lng, t.geo::cube, t.r, t.c, t.active, 'dating',
          ${now}::timestamptz - make_interval(secs => t.ago)
        from unnest(${c.id}::text[], ${c.lat}::float8[], ${c.lng}::float8[], ${c.geo}::text[], ${c.row}::int[], ${c.col}::int[],
          ${c.locActive}::bool[], ${c.updatedAgoS}::int[]) as t(id, lat, lng, geo, r, c, active, ago)`.execute(trx);
    });
  }
  // A few blocks, so the block probes do real work.
  await sql`insert into user_blocks (blocker_id, blocked_id)
    select 'b' || lpad(((g * 7919) % ${n})::text, 7, '0'), 'b' || lpad(((g * 104729 + 1) % ${n})::text, 7, '0')
    from generate_series(1, ${Math.floor(n / 50)}) g
    where (g * 7919) % ${n} <> (g * 104729 + 1) % ${n}
    on conflict do nothing`.execute(db);
  await sql`create index user_locations_geo on user_locations using gist (geo)`.execute(db);
  for (const t of ['users', 'user_settings', 'user_locations', 'user_blocks']) await sql`analyze ${sql.table(t)}`.execute(db);
  return { users: n, seconds: (performance.now() - t0) / 1000 };
}

/**
 * Cruise benchmark data: every located user's location carries his profile mode (as a
 * location update writes it), and `count` users of one city are cruising: now mode, active,
 * complete, a location updated in the last 25 minutes and a session started in the last 10
 * (so it still runs for 20 more). Re-run before each measurement: sessions age with the clock.
 */
export async function markCruisers(db: Kysely<DB>, count: number, cityIndex: number, n: number, now: Date): Promise<string[]> {
  await sql`update user_locations ul set mode = u.current_mode from users u where u.id = ul.user_id and ul.mode <> u.current_mode`.execute(
    db,
  );
  const ids: string[] = [];
  for (let i = cityIndex; i < n && ids.length < count; i += BENCH_CITIES.length) ids.push(benchUserId(i));
  await sql`delete from cruise_sessions`.execute(db);
  for (let k = 0; k < ids.length; k += BATCH) {
    const batch = ids.slice(k, k + BATCH);
    await db.transaction().execute(async (trx) => {
      await sql`update users set current_mode = 'now', is_active = true, onboarding_complete = true where id = any(${batch}::text[])`.execute(
        trx,
      );
      await sql`update user_settings set incognito_mode = false, location_sharing_consent = true where user_id = any(${batch}::text[])`.execute(
        trx,
      );
      await sql`update user_locations set mode = 'now', is_active = true,
          last_updated = ${now}::timestamptz - make_interval(secs => (abs(hashtext(user_id)) % 1500))
        where user_id = any(${batch}::text[])`.execute(trx);
      await sql`insert into cruise_sessions (id, user_id, started_at, ends_at)
        select 'bench-' || t.id, t.id, s.at, s.at + interval '30 minutes'
        from unnest(${batch}::text[]) as t(id)
        cross join lateral (select ${now}::timestamptz - make_interval(secs => (abs(hashtext(t.id)) % 600)) as at) s`.execute(
        trx,
      );
    });
  }
  for (const t of ['users', 'user_settings', 'user_locations', 'cruise_sessions']) await sql`analyze ${sql.table(t)}`.execute(db);
  return ids;
}
