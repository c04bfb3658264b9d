import type { Db } from '../../../../db/index.ts';

/**
 * The snapshot: every row that names the user, category by category, as the archive shows it and
 * as erasure lists his files and partners from it.
 */
export function userRow(db: Db, userId: string) {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

/** His number and one waiting for its code, if any. */
export async function phonesOf(db: Db, userId: string): Promise<string[]> {
  const user = await db.selectFrom('users').select('phone_number').where('id', '=', userId).executeTakeFirst();
  const pending = await db.selectFrom('phone_codes').select('phone').where('user_id', '=', userId).executeTakeFirst();
  return [...new Set([user?.phone_number, pending?.phone].filter((p): p is string => Boolean(p)))];
}

export function identityRows(db: Db, userId: string) {
  return db
    .selectFrom('identity_mappings')
    .select(['id', 'email', 'is_active', 'previous_emails', 'previous_anonymous_ids', 'registration_source', 'created_at'])
    .where('user_id', '=', userId)
    .execute();
}

export async function settingsRows(db: Db, userId: string) {
  return {
    settings: await db.selectFrom('user_settings').selectAll().where('user_id', '=', userId).executeTakeFirst(),
    location: await db
      .selectFrom('user_locations')
      .select(['lat', 'lng', 'is_active', 'mode', 'last_updated'])
      .where('user_id', '=', userId)
      .executeTakeFirst(),
    modeChanges: await db
      .selectFrom('mode_events')
      .select(['from_label', 'to_label', 'trigger', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),
    healthTimeZone: (await db.selectFrom('health_settings').select('time_zone').where('user_id', '=', userId).executeTakeFirst())
      ?.time_zone,
  };
}

export function photoRows(db: Db, userId: string) {
  return db
    .selectFrom('photos')
    .select(['id', 'storage_key', 'width', 'height', 'bytes', 'position', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('position')
    .execute();
}

export function messagePhotoRows(db: Db, userId: string) {
  return db
    .selectFrom('message_photos')
    .select(['id', 'storage_key', 'width', 'height', 'bytes', 'created_at'])
    .where('user_id', '=', userId)
    .execute();
}

export async function promptRows(db: Db, userId: string) {
  return {
    liked: await db
      .selectFrom('prompt_likes as l')
      .innerJoin('prompts as p', 'p.id', 'l.prompt_id')
      .select(['l.prompt_id', 'p.text as prompt', 'l.owner_id', 'l.created_at'])
      .where('l.liker_id', '=', userId)
      .execute(),
    // When his answers were liked, not by whom: the app never tells him who liked an answer.
    likesReceived: await db
      .selectFrom('prompt_likes as l')
      .innerJoin('prompts as p', 'p.id', 'l.prompt_id')
      .select(['l.prompt_id', 'p.text as prompt', 'l.created_at'])
      .where('l.owner_id', '=', userId)
      .execute(),
  };
}

export async function selectionRows(db: Db, userId: string) {
  return {
    selections: await db
      .selectFrom('selections')
      .select(['id', 'target_id', 'action', 'is_super', 'created_at', 'updated_at', 'seen_at'])
      .where('chooser_id', '=', userId)
      .execute(),
    // Kills are kept only as requests (they make no selection row).
    requests: await db
      .selectFrom('selection_requests')
      .select(['client_id', 'target_id', 'action', 'is_super', 'created_at'])
      .where('chooser_id', '=', userId)
      .execute(),
    profilesOpened: await db
      .selectFrom('grid_unlocks')
      .select(['day', 'target_id', 'created_at'])
      .where('viewer_id', '=', userId)
      .execute(),
  };
}

/** The user's matches, each with the other man's id and name as the app showed them. */
export async function matchRows(db: Db, userId: string) {
  const rows = await db
    .selectFrom('matches')
    .select(['id', 'user_a', 'user_b', 'match_type', 'user_actions', 'matched_at'])
    .where((eb) => eb.or([eb('user_a', '=', userId), eb('user_b', '=', userId)]))
    .execute();
  const names = await displayNames(
    db,
    rows.map((r) => (r.user_a === userId ? r.user_b : r.user_a)),
  );
  return rows.map((r) => {
    const partner = r.user_a === userId ? r.user_b : r.user_a;
    return {
      id: r.id,
      partnerId: partner,
      partnerName: names.get(partner) ?? null,
      matchType: r.match_type,
      actions: r.user_actions,
      matchedAt: r.matched_at,
    };
  });
}

async function displayNames(db: Db, ids: readonly string[]): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'display_name'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.display_name]));
}

/** The user's conversations with every message in them, both sides' (he received them). */
export async function conversationRows(db: Db, userId: string) {
  const conversations = await db
    .selectFrom('conversations')
    .select([
      'id',
      'user_a',
      'user_b',
      'type',
      'mode',
      'match_type',
      'is_accepted',
      'created_at',
      'last_activity',
      'deleted_a',
      'deleted_b',
    ])
    .where((eb) => eb.or([eb('user_a', '=', userId), eb('user_b', '=', userId)]))
    .orderBy('created_at')
    .execute();
  const ids = conversations.map((c) => c.id);
  const messages = ids.length
    ? await db
        .selectFrom('messages')
        .select(['id', 'conversation_id', 'sender_id', 'type', 'content', 'photo_id', 'created_at', 'delivered_at', 'read_at'])
        .where('conversation_id', 'in', ids)
        .orderBy('seq')
        .execute()
    : [];
  const names = await displayNames(
    db,
    conversations.map((c) => (c.user_a === userId ? c.user_b : c.user_a)),
  );
  return conversations.map((c) => {
    const partner = c.user_a === userId ? c.user_b : c.user_a;
    return {
      id: c.id,
      partnerId: partner,
      partnerName: names.get(partner) ?? null,
      type: c.type,
      mode: c.mode,
      matchType: c.match_type,
      accepted: c.is_accepted,
      hiddenByMe: c.user_a === userId ? c.deleted_a : c.deleted_b,
      createdAt: c.created_at,
      lastActivity: c.last_activity,
      messages: messages
        .filter((m) => m.conversation_id === c.id)
        .map((m) => ({
          id: m.id,
          fromMe: m.sender_id === userId,
          type: m.type,
          content: m.content,
          photoId: m.photo_id,
          createdAt: m.created_at,
          deliveredAt: m.delivered_at,
          readAt: m.read_at,
        })),
    };
  });
}

export async function cruiseRows(db: Db, userId: string) {
  return {
    sessions: await db.selectFrom('cruise_sessions').selectAll().where('user_id', '=', userId).orderBy('started_at').execute(),
    counters: await db.selectFrom('cruise_counters').selectAll().where('user_id', '=', userId).execute(),
    spotsProposed: await db
      .selectFrom('cruising_spots')
      .select(['id', 'name', 'kind', 'description', 'lat', 'lng', 'status', 'created_at'])
      .where('proposed_by', '=', userId)
      .execute(),
    checkins: await db.selectFrom('spot_checkins').selectAll().where('user_id', '=', userId).execute(),
    eventsCreated: await db.selectFrom('group_events').selectAll().where('creator_id', '=', userId).execute(),
    eventsJoined: await db.selectFrom('event_attendees').selectAll().where('user_id', '=', userId).execute(),
    eventComments: await db.selectFrom('event_comments').selectAll().where('user_id', '=', userId).execute(),
  };
}

export function sessionRows(db: Db, userId: string) {
  return db
    .selectFrom('sessions')
    .select(['created_at', 'last_used_at', 'expires_at', 'revoked_at', 'user_agent', 'ip_address'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

/** Staff actions about the user, found by his anonymous ids or his addresses (the audit log names no user id). */
export function auditRows(db: Db, anonymousIds: readonly string[], emails: readonly string[]) {
  return db
    .selectFrom('audit_log')
    .select(['action', 'reason', 'created_at'])
    .where((eb) =>
      eb.or([
        ...(anonymousIds.length ? [eb('anonymous_id', 'in', [...anonymousIds])] : []),
        ...(emails.length ? [eb('email', 'in', [...emails])] : []),
        eb.lit(false),
      ]),
    )
    .orderBy('created_at')
    .execute();
}

/** The browsers that receive his pushes; their keys stay out. */
export function pushRows(db: Db, userId: string) {
  return db
    .selectFrom('push_subscriptions')
    .select(['endpoint', 'user_agent', 'created_at', 'updated_at'])
    .where('user_id', '=', userId)
    .execute();
}

/** His bug reports and feedback, his conversations with support (staff appear as "staff"), and his screenshots. */
export async function supportRows(db: Db, userId: string) {
  const threads = await db
    .selectFrom('support_threads')
    .select(['id', 'subject', 'status', 'created_at', 'last_message_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  const messages = threads.length
    ? await db
        .selectFrom('support_messages')
        .select(['thread_id', 'from_staff', 'text', 'created_at'])
        .where(
          'thread_id',
          'in',
          threads.map((t) => t.id),
        )
        .orderBy('created_at')
        .execute()
    : [];
  return {
    reports: await db
      .selectFrom('feedback_reports')
      .select(['id', 'kind', 'category', 'text', 'status', 'screenshot_id', 'app_version', 'browser', 'created_at', 'updated_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),
    threads: threads.map((t) => ({
      ...t,
      messages: messages
        .filter((m) => m.thread_id === t.id)
        .map((m) => ({ from: m.from_staff ? 'staff' : 'me', text: m.text, createdAt: m.created_at })),
    })),
    screenshots: await db
      .selectFrom('support_screenshots')
      .select(['id', 'storage_key', 'width', 'height', 'bytes', 'created_at'])
      .where('user_id', '=', userId)
      .execute(),
  };
}

/**
 * The reports he made: about whom, why, their state, the messages copied in as evidence (his
 * own conversation, which he saw) and his screenshots. Reports others made about him are not
 * here: they would name who made them, which the app never tells (safety).
 */
export async function reportRows(db: Db, userId: string) {
  const reports = await db
    .selectFrom('user_reports')
    .select(['id', 'reported_id', 'reason', 'category', 'description', 'status', 'blocked', 'created_at', 'updated_at'])
    .where('reporter_id', '=', userId)
    .orderBy('created_at')
    .execute();
  const ids = reports.map((r) => r.id);
  const messages = ids.length
    ? await db
        .selectFrom('report_messages')
        .select(['report_id', 'from_reported', 'type', 'content', 'sent_at'])
        .where('report_id', 'in', ids)
        .orderBy('sent_at')
        .execute()
    : [];
  const screenshots = await db
    .selectFrom('report_screenshots')
    .select(['id', 'report_id', 'storage_key', 'width', 'height', 'bytes', 'created_at'])
    .where('user_id', '=', userId)
    .execute();
  return {
    reports: reports.map(({ reported_id, ...r }) => ({
      ...r,
      reportedUserId: reported_id,
      evidence: messages
        .filter((m) => m.report_id === r.id)
        .map((m) => ({ from: m.from_reported ? 'him' : 'me', type: m.type, content: m.content, sentAt: m.sent_at })),
    })),
    screenshots,
  };
}

/** The safety alerts the app raised for him, whatever their state. */
export function alertRows(db: Db, userId: string) {
  return db
    .selectFrom('safety_alerts')
    .select(['id', 'type', 'severity', 'title', 'message', 'state', 'created_at', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

/** His calls, made and received: with whom (id), how and when; never the browsers' session descriptions. */
export async function callRows(db: Db, userId: string) {
  const rows = await db
    .selectFrom('calls')
    .select(['id', 'caller_id', 'callee_id', 'kind', 'outcome', 'created_at', 'answered_at', 'ended_at'])
    .where((w) => w.or([w('caller_id', '=', userId), w('callee_id', '=', userId)]))
    .orderBy('created_at')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    direction: r.caller_id === userId ? 'made' : 'received',
    with: r.caller_id === userId ? r.callee_id : r.caller_id,
    kind: r.kind,
    outcome: r.outcome,
    startedAt: r.created_at,
    answeredAt: r.answered_at,
    endedAt: r.ended_at,
  }));
}
