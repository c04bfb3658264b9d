import { type Kysely, sql } from 'kysely';

// A report's category held to the list the API accepts (core's FEEDBACK_CATEGORIES at the time),
// as its kind and status are.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('feedback_reports')
    .addCheckConstraint(
      'feedback_reports_category',
      sql`category in ('grid','game','messages','cruise','health','activity','profile','account','safety','other')`,
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('feedback_reports').dropConstraint('feedback_reports_category').execute();
}
