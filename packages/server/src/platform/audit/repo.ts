import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { type ChainVerdict, chainHash, sha256, subjectDigestOf, verifyRows } from './chain.ts';

export interface AuditEntry {
  adminId: string;
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  anonymousId?: string | null;
  email?: string | null;
  reason: string;
  ip?: string | null;
  now: Date;
}

/** Who makes a staff write and from where: the two fields every staff write's row takes from its request. */
export interface StaffBy {
  adminId: string;
  ip: string | null;
}

/** What a staff write records of itself. */
export interface StaffAct {
  action: string;
  targetType: string;
  targetId: string;
  /** The staff member's reason or note, or what changed when the call carries none. */
  reason: string;
  now: Date;
}

/** The audit row of one staff write, in the write's own transaction (`trx`). */
export function auditStaff(trx: Db, by: StaffBy, act: StaffAct): Promise<void> {
  return writeAudit(trx, { adminId: by.adminId, ip: by.ip, ...act });
}

/** Any number: one lock for every writer of the chain. */
const AUDIT_LOCK = 1_907_19;

/**
 * Appends one row to the hash chain, in the caller's transaction (a row for a change commits
 * or rolls back with it). Writers queue on a transaction-scoped advisory lock so that two
 * rows never claim the same previous hash.
 */
export async function writeAudit(db: Db, e: AuditEntry): Promise<void> {
  if (!db.isTransaction) {
    await db.transaction().execute((trx) => writeAudit(trx, e));
    return;
  }
  await sql`select pg_advisory_xact_lock(${AUDIT_LOCK})`.execute(db);
  const last = await db.selectFrom('audit_log').select('hash').orderBy('id', 'desc').limit(1).executeTakeFirst();
  const prev = last?.hash ?? '';
  const fields = {
    adminDigest: sha256(e.adminId),
    action: e.action,
    targetType: e.targetType ?? null,
    targetId: e.targetId ?? null,
    subjectDigest: subjectDigestOf(e.email ?? null, e.anonymousId ?? null),
    reason: e.reason,
    ip: e.ip ?? null,
    createdAt: e.now,
  };
  await db
    .insertInto('audit_log')
    .values({
      admin_id: e.adminId,
      action: e.action,
      anonymous_id: e.anonymousId ?? null,
      email: e.email ?? null,
      reason: e.reason,
      ip_address: e.ip ?? null,
      created_at: e.now,
      target_type: fields.targetType,
      target_id: fields.targetId,
      admin_digest: fields.adminDigest,
      subject_digest: fields.subjectDigest,
      prev_hash: prev,
      hash: chainHash(prev, fields),
    })
    .execute();
}

/** Checks the whole chain, reading it in pages of 1000. */
export async function verifyAudit(db: Db): Promise<ChainVerdict> {
  const rows = [];
  let after = 0;
  for (;;) {
    const page = await db.selectFrom('audit_log').selectAll().where('id', '>', after).orderBy('id').limit(1000).execute();
    rows.push(...page);
    if (page.length < 1000) break;
    after = Number(page.at(-1)!.id);
  }
  return verifyRows(rows);
}

export interface AuditFilter {
  action?: string;
  adminId?: string;
  q?: string;
  from?: Date;
  to?: Date;
}

/** One page of the log, newest first (spec section 9: a page of 100). */
export async function listAudit(db: Db, f: AuditFilter, page: { limit: number; offset: number }) {
  let q = db.selectFrom('audit_log as l').leftJoin('users as u', 'u.id', 'l.admin_id');
  if (f.action) q = q.where('l.action', '=', f.action);
  if (f.adminId) q = q.where('l.admin_id', '=', f.adminId);
  if (f.from) q = q.where('l.created_at', '>=', f.from);
  if (f.to) q = q.where('l.created_at', '<', f.to);
  if (f.q) {
    const like = `%${f.q.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([eb('l.reason', 'ilike', like), eb('l.target_id', 'ilike', like), eb('l.anonymous_id', 'ilike', like)]),
    );
  }
  const [rows, total] = await Promise.all([
    q
      .select([
        'l.id',
        'l.admin_id',
        'u.email as admin_email',
        'l.action',
        'l.target_type',
        'l.target_id',
        'l.anonymous_id',
        'l.reason',
        'l.ip_address',
        'l.created_at',
        'l.hash',
      ])
      .orderBy('l.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    q.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}
