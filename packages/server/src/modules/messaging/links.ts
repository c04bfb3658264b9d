import { hasLink, linkPrevented, matchPair } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { settingsOf } from '../settings/service.ts';
import { matchTypeOfPair } from './repo.ts';

type Row = { sender_id: string; receiver_id: string; type: string; content: string };

/**
 * Which of these messages reach their receiver with the link disabled (core linkPrevented: a link
 * from a man he has not matched, his linkPreventionEnabled on). Only texts with a link cost a
 * query: their pairs' matches and their receivers' settings.
 */
export async function linkGuard(db: Db, rows: readonly Row[]): Promise<(r: Row) => boolean> {
  const linked = rows.filter((r) => r.type === 'text' && hasLink(r.content));
  if (linked.length === 0) return () => false;
  const matched = new Map<string, boolean>();
  const prevents = new Map<string, boolean>();
  for (const r of linked) {
    const key = matchPair(r.sender_id, r.receiver_id).join(':');
    if (!matched.has(key)) {
      const [a, b] = matchPair(r.sender_id, r.receiver_id);
      matched.set(key, (await matchTypeOfPair(db, a, b)) !== null);
    }
    if (!prevents.has(r.receiver_id))
      prevents.set(
        r.receiver_id,
        (await settingsOf(db, r.receiver_id))?.safety.communicationSafety.linkPreventionEnabled ?? true,
      );
  }
  const blocked = new Set(
    linked.filter((r) =>
      linkPrevented({
        text: r.content,
        matched: matched.get(matchPair(r.sender_id, r.receiver_id).join(':')) ?? false,
        receiverPrevents: prevents.get(r.receiver_id) ?? true,
      }),
    ),
  );
  return (r) => blocked.has(r);
}
