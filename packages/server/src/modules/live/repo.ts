import type { Db } from '../../db/index.ts';

/**
 * Presence's rows: one live_connections row per open socket, refreshed by its instance's
 * heartbeat; users.is_online / last_seen follow them (presence.ts).
 */

export async function insertConnection(db: Db, c: { id: string; userId: string; instanceId: string; at: Date }): Promise<void> {
  await db
    .insertInto('live_connections')
    .values({ id: c.id, user_id: c.userId, instance_id: c.instanceId, connected_at: c.at, heartbeat_at: c.at })
    .execute();
}

export async function deleteConnection(db: Db, id: string): Promise<void> {
  await db.deleteFrom('live_connections').where('id', '=', id).execute();
}

export async function touchInstanceConnections(db: Db, instanceId: string, at: Date): Promise<void> {
  await db.updateTable('live_connections').set({ heartbeat_at: at }).where('instance_id', '=', instanceId).execute();
}

/** Deletes connections not refreshed since `before` (a crashed instance's); returns their users. */
export async function deleteStaleConnections(db: Db, before: Date): Promise<string[]> {
  const rows = await db.deleteFrom('live_connections').where('heartbeat_at', '<', before).returning('user_id').execute();
  return rows.map((r) => r.user_id);
}

/** Deletes an instance's connections (its shutdown); returns their users. */
export async function deleteInstanceConnections(db: Db, instanceId: string): Promise<string[]> {
  const rows = await db.deleteFrom('live_connections').where('instance_id', '=', instanceId).returning('user_id').execute();
  return rows.map((r) => r.user_id);
}

/** The user's is_online, his row locked: one user's presence changes go one at a time on every instance. */
export async function lockPresence(db: Db, userId: string): Promise<{ is_online: boolean } | undefined> {
  return db.selectFrom('users').select('is_online').where('id', '=', userId).forUpdate().executeTakeFirst();
}

/** Whether the user has a connection refreshed since `since`. */
export async function hasFreshConnection(db: Db, userId: string, since: Date): Promise<boolean> {
  const row = await db
    .selectFrom('live_connections')
    .select('id')
    .where('user_id', '=', userId)
    .where('heartbeat_at', '>=', since)
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}

export async function setPresence(db: Db, userId: string, online: boolean, at: Date): Promise<void> {
  await db.updateTable('users').set({ is_online: online, last_seen: at }).where('id', '=', userId).execute();
}
