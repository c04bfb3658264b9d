import { createHash } from 'node:crypto';

/**
 * The audit log's hash chain: each row's hash covers the previous row's hash and the
 * row's fields, so an edited, removed or reordered row breaks every hash after it. Who acted and
 * whom it concerned enter as digests kept in their own columns: erasing an account nulls the
 * clear text (the law's erasure) without breaking the chain, while an edit of the clear text no
 * longer matches its digest.
 */
export const sha256 = (v: string | null): string =>
  createHash('sha256')
    .update(v ?? '')
    .digest('hex');

/** The placeholder erasure writes over an erased staff member's id (identity ERASED). */
export const ERASED_ADMIN = 'erased';

export interface ChainFields {
  adminDigest: string;
  action: string;
  targetType: string | null;
  targetId: string | null;
  subjectDigest: string;
  reason: string;
  ip: string | null;
  createdAt: Date;
}

export const subjectDigestOf = (email: string | null, anonymousId: string | null): string =>
  `${sha256(email)}:${sha256(anonymousId)}`;

export function chainHash(prev: string, f: ChainFields): string {
  return sha256(
    JSON.stringify([
      prev,
      f.adminDigest,
      f.action,
      f.targetType,
      f.targetId,
      f.subjectDigest,
      f.reason,
      f.ip,
      f.createdAt.toISOString(),
    ]),
  );
}

export interface StoredAuditRow {
  id: number | string;
  admin_id: string;
  action: string;
  anonymous_id: string | null;
  email: string | null;
  reason: string;
  ip_address: string | null;
  created_at: Date;
  target_type: string | null;
  target_id: string | null;
  admin_digest: string | null;
  subject_digest: string | null;
  prev_hash: string | null;
  hash: string | null;
}

export type ChainVerdict = { ok: true; rows: number } | { ok: false; rows: number; brokenAt: string; why: string };

/** Walks rows in id order and names the first that does not hold. */
export function verifyRows(rows: Iterable<StoredAuditRow>): ChainVerdict {
  let prev = '';
  let n = 0;
  for (const r of rows) {
    n += 1;
    const id = String(r.id);
    const broken = (why: string): ChainVerdict => ({ ok: false, rows: n, brokenAt: id, why });
    if (r.prev_hash !== prev) return broken('the previous hash does not match');
    if (!r.admin_digest || !r.subject_digest || !r.hash) return broken('the row has no hash');
    if (r.admin_id !== ERASED_ADMIN && sha256(r.admin_id) !== r.admin_digest) return broken('who acted was changed');
    const [emailDigest, anonDigest] = r.subject_digest.split(':');
    if (r.email !== null && sha256(r.email) !== emailDigest) return broken('the email was changed');
    if (r.anonymous_id !== null && sha256(r.anonymous_id) !== anonDigest) return broken('the anonymous id was changed');
    const expected = chainHash(prev, {
      adminDigest: r.admin_digest,
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      subjectDigest: r.subject_digest,
      reason: r.reason,
      ip: r.ip_address,
      createdAt: new Date(r.created_at),
    });
    if (expected !== r.hash) return broken('the row was changed');
    prev = r.hash;
  }
  return { ok: true, rows: n };
}
