import { type Kysely, sql } from 'kysely';

// The model's verdict on the photo users.photo_url shows, kept beside it so every list that shows
// a man's avatar (grid, nearby, likes, matches, conversations, cruise) can apply each viewer's
// content filter without a join per row: photo_nudity is its nudity score (null until scored),
// photo_sensitive whether the model flagged it for nudity (held, then approved by staff).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column photo_nudity double precision`.execute(db);
  await sql`alter table users add column photo_sensitive boolean not null default false`.execute(db);
  // Existing avatars: the first visible photo, as the profile service picks it.
  await sql`
    update users u set
      photo_nudity = f.nudity,
      photo_sensitive = f.sensitive
    from (
      select distinct on (p.user_id)
        p.user_id,
        (mi.ai_analysis->>'nudity')::float8 as nudity,
        coalesce(mi.flagged_reason like '%nudity%', false) as sensitive
      from photos p
      left join moderation_items mi on mi.content_type = 'profile_photo' and mi.content_id = p.id
      where not p.held
      order by p.user_id, p.position, p.created_at, p.id
    ) f
    where f.user_id = u.id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column photo_sensitive`.execute(db);
  await sql`alter table users drop column photo_nudity`.execute(db);
}
