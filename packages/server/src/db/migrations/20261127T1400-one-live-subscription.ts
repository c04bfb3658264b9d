import { type Kysely, sql } from 'kysely';

// At most one live paid subscription per user: active or past_due, including one canceled at its
// period's end that has not ended yet (its status stays active until the lapse job cancels it).
// The checkout checks this too, but only the database can hold it against two racing requests.
// A staff grant (comp) sits beside a paid plan, so it is left out.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create unique index subscriptions_one_live on subscriptions (user_id) where status <> 'canceled' and not comp`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index subscriptions_one_live`.execute(db);
}
