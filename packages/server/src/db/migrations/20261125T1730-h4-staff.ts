import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

// The staff admin area (issue 19): staff sessions apart from member sessions, the second
// factor (TOTP secret sealed, hashed recovery codes), invites by email with an expiring link,
// and a hash-chained audit log. Existing audit rows are chained here, in id order, with the same
// rule platform/audit uses; a migration never changes, so the rule is written out.
const digest = (v: string | null): string =>
  createHash('sha256')
    .update(v ?? '')
    .digest('hex');

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('member').check(sql`kind in ('member','staff')`))
    .execute();

  await db.schema
    .alterTable('admin_users')
    .addColumn('totp_secret', 'text')
    .addColumn('totp_enabled_at', 'timestamptz')
    .addColumn('totp_last_step', 'integer')
    .addColumn('recovery_codes', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('invited_by', 'text')
    .execute();

  await db.schema
    .createTable('admin_invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner','super_admin','admin','moderator')`))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('accepted_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('admin_invites_by').on('admin_invites').column('invited_by').execute();

  await db.schema
    .alterTable('audit_log')
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('admin_digest', 'text')
    .addColumn('subject_digest', 'text')
    .addColumn('prev_hash', 'text')
    .addColumn('hash', 'text')
    .execute();
  await db.schema.createIndex('audit_log_h4_created').on('audit_log').columns(['created_at', 'id']).execute();

  type Row = {
    id: number | string;
    admin_id: string;
    action: string;
    anonymous_id: string | null;
    email: string | null;
    reason: string;
    ip_address: string | null;
    created_at: Date | string;
  };
  const { rows } = await sql<Row>`select * from audit_log order by id`.execute(db);
  let prev = '';
  for (const r of rows) {
    const adminDigest = digest(r.admin_id);
    const subjectDigest = `${digest(r.email)}:${digest(r.anonymous_id)}`;
    const created = new Date(r.created_at).toISOString();
    const hash = createHash('sha256')
      .update(JSON.stringify([prev, adminDigest, r.action, null, null, subjectDigest, r.reason, r.ip_address, created]))
      .digest('hex');
    await sql`update audit_log set admin_digest = ${adminDigest}, subject_digest = ${subjectDigest}, prev_hash = ${prev}, hash = ${hash} where id = ${r.id}`.execute(
      db,
    );
    prev = hash;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('audit_log_h4_created').execute();
  for (const c of ['target_type', 'target_id', 'admin_digest', 'subject_digest', 'prev_hash', 'hash'])
    await db.schema.alterTable('audit_log').dropColumn(c).execute();
  await db.schema.dropTable('admin_invites').execute();
  for (const c of ['totp_secret', 'totp_enabled_at', 'totp_last_step', 'recovery_codes', 'invited_by'])
    await db.schema.alterTable('admin_users').dropColumn(c).execute();
  await db.schema.alterTable('sessions').dropColumn('kind').execute();
}
