import { type Kysely, sql } from 'kysely';

// A reported photo message keeps which chat photo it carried. The block that often comes with a
// report deletes the conversation and its messages, so the copy in report_messages is the only
// link left between a report and the photo: staff open a reported chat photo through it (and only
// a reported one: they never read other conversations). The file itself stays in message_photos.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table report_messages add column photo_id text references message_photos(id) on delete set null`.execute(db);
  await sql`create index report_messages_photo on report_messages (photo_id) where photo_id is not null`.execute(db);
  // Reports filed before this: the photo of each reported message that still exists.
  await sql`
    update report_messages r set photo_id = m.photo_id
    from messages m
    where m.id = r.message_id and r.type = 'photo' and m.photo_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index report_messages_photo`.execute(db);
  await sql`alter table report_messages drop column photo_id`.execute(db);
}
