import type { Db } from '../../../db/index.ts';

/**
 * Hides, for each member with autoDeleteUnverifiedChats on, the conversations a man without the
 * verified badge (no confirmed phone) started and the member never answered, once the man's
 * latest message is older than `cutoff`: the member's side is marked deleted (his unread count
 * with it), as his own "delete for me" does; a later message from the man brings it back, for
 * another full wait. One UPDATE per side, conditional on the side not being deleted yet, so two
 * sweepers never hide one twice. Returns what was hidden, and for whom.
 */
export async function hideUnansweredUnverified(
  db: Db,
  cutoff: Date,
  limit: number,
): Promise<Array<{ conversationId: string; userId: string }>> {
  const hidden: Array<{ conversationId: string; userId: string }> = [];
  for (const side of ['a', 'b'] as const) {
    const me = side === 'a' ? ('c.user_a' as const) : ('c.user_b' as const);
    const other = side === 'a' ? ('c.user_b' as const) : ('c.user_a' as const);
    const deleted = side === 'a' ? ('c.deleted_a' as const) : ('c.deleted_b' as const);
    const rows = await db
      .updateTable('conversations as c')
      .set(side === 'a' ? { deleted_a: true, unread_a: 0 } : { deleted_b: true, unread_b: 0 })
      .where(
        'c.id',
        'in',
        db
          .selectFrom('conversations as c')
          .innerJoin('user_settings as s', 's.user_id', me)
          .innerJoin('users as o', 'o.id', other)
          .innerJoin('messages as last', 'last.id', 'c.last_message_id')
          .select('c.id')
          .where('s.auto_delete_unverified_chats', '=', true)
          .where(deleted, '=', false)
          .where('o.phone_verified_at', 'is', null)
          // His latest message is the conversation's latest, and old enough.
          .whereRef('last.sender_id', '=', other)
          .where('last.created_at', '<=', cutoff)
          // The member never wrote in it: the man started it and has had no reply.
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('messages as mine')
                  .select('mine.id')
                  .whereRef('mine.conversation_id', '=', 'c.id')
                  .whereRef('mine.sender_id', '=', me),
              ),
            ),
          )
          .limit(limit),
      )
      .where(deleted, '=', false)
      .returning(['c.id', `${me} as user_id`])
      .execute();
    for (const r of rows) hidden.push({ conversationId: r.id, userId: r.user_id });
  }
  return hidden;
}
