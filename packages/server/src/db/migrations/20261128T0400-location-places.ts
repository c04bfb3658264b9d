import { type Kysely, sql } from 'kysely';

// Places (docs/decisions/0016): every man is listed for others at the centre of a 1 km square of
// his own shifted lattice (core placeCentre), not at his cell centre. The shift is two numbers in
// [0, 1) drawn once per location row and kept. Rows written before were listed at their bare cell
// centre, which trilateration recovers: they leave the lists until their next update (the app
// sends one whenever it opens), which places them by their new shift.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table user_locations add column shift_lat double precision not null default random()`.execute(db);
  await sql`alter table user_locations add column shift_lng double precision not null default random()`.execute(db);
  await sql`update user_locations set is_active = false where is_active`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table user_locations drop column shift_lng`.execute(db);
  await sql`alter table user_locations drop column shift_lat`.execute(db);
}
