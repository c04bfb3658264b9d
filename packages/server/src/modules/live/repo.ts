import type { Db } from '../../db/index.ts';

/**
 * Presence's rows: one live_connections row per open socket, refreshed by its instance's
 * heartbeat; users.is_online / last_seen follow them (presence.ts).
 */

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

// Presence in batches (presence.ts): one statement for many users' changes.

export async function insertConnections(
  db: Db,
  rows: ReadonlyArray<{ id: string; userId: string; instanceId: string; at: Date }>,
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('live_connections')
    .values(rows.map((c) => ({ id: c.id, user_id: c.userId, instance_id: c.instanceId, connected_at: c.at, heartbeat_at: c.at })))
    .execute();
}

export async function deleteConnections(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('live_connections').where('id', 'in', ids).execute();
}

/** These users' is_online, their rows locked in id order (every instance locks in the same order). */
export async function lockPresences(db: Db, userIds: readonly string[]): Promise<Map<string, boolean>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'is_online'])
    .where('id', 'in', userIds)
    .orderBy('id')
    .forUpdate()
    .execute();
  return new Map(rows.map((r) => [r.id, r.is_online]));
}

/** Which of these users have a connection refreshed since `since`. */
export async function withFreshConnection(db: Db, userIds: readonly string[], since: Date): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('live_connections')
    .select('user_id')
    .distinct()
    .where('user_id', 'in', userIds)
    .where('heartbeat_at', '>=', since)
    .execute();
  return new Set(rows.map((r) => r.user_id));
}

export async function setPresences(db: Db, userIds: readonly string[], online: boolean, at: Date): Promise<void> {
  if (userIds.length === 0) return;
  await db.updateTable('users').set({ is_online: online, last_seen: at }).where('id', 'in', userIds).execute();
}
