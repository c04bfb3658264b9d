import { type Kysely, sql } from 'kysely';

// locationSafety made real: hideExactLocation now places a man by his 5 km area in every list, so
// it is off by default (on for everyone, no one would ever be seen nearer than '< 5 km'). Rows
// written before keep their value, the safer side; their point in the lists becomes the area at
// their next location update, and their labels at once.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table user_settings alter column hide_exact_location set default false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table user_settings alter column hide_exact_location set default true`.execute(db);
}
