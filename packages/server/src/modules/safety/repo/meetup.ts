import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../../db/index.ts';
import type { MeetupCheckinsTable, SafetyContactsTable } from '../../../db/schema.ts';

export type ContactRow = Selectable<SafetyContactsTable>;
export type CheckinRow = Selectable<MeetupCheckinsTable>;

export function findContact(db: Db, userId: string): Promise<ContactRow | undefined> {
  return db.selectFrom('safety_contacts').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function saveContact(db: Db, row: Insertable<SafetyContactsTable>): Promise<void> {
  const { user_id: _, ...changes } = row;
  await db
    .insertInto('safety_contacts')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doUpdateSet(changes))
    .execute();
}

export async function insertCheckin(db: Db, row: Insertable<MeetupCheckinsTable>): Promise<void> {
  await db.insertInto('meetup_checkins').values(row).execute();
}

export function findCheckin(db: Db, id: string): Promise<CheckinRow | undefined> {
  return db.selectFrom('meetup_checkins').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listCheckinsOf(db: Db, userId: string, limit: number): Promise<CheckinRow[]> {
  return db
    .selectFrom('meetup_checkins')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Closes an active check-in (checked in, cancelled); false when it was not active any more. */
export async function closeCheckin(db: Db, id: string, status: 'checked_in' | 'cancelled'): Promise<boolean> {
  const res = await db
    .updateTable('meetup_checkins')
    .set({ status })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Takes the active check-ins due by `now` (at most `limit`), marking them overdue in the same
 * statement, so two sweepers never email a contact twice. Returns them with the contact to tell.
 */
export async function takeOverdue(db: Db, now: Date, limit: number) {
  const due = db
    .selectFrom('meetup_checkins')
    .select('id')
    .where('status', '=', 'active')
    .where('check_in_by', '<=', now)
    .orderBy('check_in_by')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  const taken = await db
    .updateTable('meetup_checkins')
    .set({ status: 'overdue', notified_at: now })
    .where('id', 'in', due)
    .returning(['id', 'user_id', 'meeting_who', 'place', 'starts_at', 'check_in_by'])
    .execute();
  if (taken.length === 0) return [];
  const people = await db
    .selectFrom('users')
    .leftJoin('safety_contacts', 'safety_contacts.user_id', 'users.id')
    .select(['users.id', 'users.display_name', 'safety_contacts.name as contact_name', 'safety_contacts.email as contact_email'])
    .where(
      'users.id',
      'in',
      taken.map((t) => t.user_id),
    )
    .execute();
  const byId = new Map(people.map((p) => [p.id, p]));
  return taken.map((t) => ({ ...t, person: byId.get(t.user_id) }));
}

/** His display name, for the mails to his contact. */
export async function displayNameOf(db: Db, userId: string): Promise<string | null> {
  const r = await db.selectFrom('users').select('display_name').where('id', '=', userId).executeTakeFirst();
  return r?.display_name ?? null;
}
