import { type Kysely, sql } from 'kysely';

// Issue 5 (speed): a message send in one statement. On this kind of machine a database round
// trip costs more than the work it carries (the send used twelve of them), so the send's
// checks and writes run inside the database as one function call, atomically.
//
// Ordering: each message takes transaction-scoped advisory locks on both participants (in key
// order, so two sends never wait on each other crosswise) before its seq is drawn. Every user's
// messages therefore commit in seq order, which is what the catch-up cursor (messages with a
// seq above the last one seen, sent or received by me) needs to never skip one; messages of
// unrelated users no longer queue behind each other as they did under one global lock.
//
// Errors carry their own SQLSTATE (class FK) and are mapped to the API's errors by the service:
//   FK401 the sender is not an active user   FK404 no such conversation (or blocked, inactive)
//   FK409 the client id was used elsewhere   FK429 daily limit (message = the effective tier)
//   FK400 the photo is not the sender's
// The tier limits come from core (TIER_LIMITS) as a parameter; the effective tier rule
// (lifetime premium lifts free to premium) mirrors core's effectiveTier.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function fmk_send_message(
      p_id text, p_sender text, p_conversation text, p_client_id text, p_type text, p_content text,
      p_photo_id text, p_now timestamptz, p_day date, p_limits jsonb
    ) returns table (
      created boolean, sender_name text, other_online boolean,
      id text, seq bigint, conversation_id text, sender_id text, receiver_id text, client_id text,
      type text, content text, created_at timestamptz, delivered_at timestamptz, read_at timestamptz,
      photo_id text, storage_key text, width integer, height integer
    ) language plpgsql as $fn$
    declare
      v_name text;
      v_tier text;
      v_limit integer;
      v_count integer;
      v_earlier text;
      v_earlier_conversation text;
      v_user_a text;
      v_other text;
      v_other_online boolean;
      k1 integer;
      k2 integer;
    begin
      -- The sender's row lock serialises his sends (retries of one client id, his daily count).
      -- NO KEY UPDATE: other sends to him take KEY SHARE on this row through the foreign key.
      select u.display_name,
             case when u.has_lifetime_premium and u.subscription_tier = 'free' then 'premium' else u.subscription_tier end
        into v_name, v_tier
        from users u where u.id = p_sender and u.is_active
        for no key update;
      if not found then
        raise exception using errcode = 'FK401', message = 'sender';
      end if;

      select m.id, m.conversation_id into v_earlier, v_earlier_conversation
        from messages m where m.sender_id = p_sender and m.client_id = p_client_id;
      if found then
        if v_earlier_conversation <> p_conversation then
          raise exception using errcode = 'FK409', message = 'client id';
        end if;
        return query
          select false, v_name, null::boolean, m.id, m.seq, m.conversation_id, m.sender_id, m.receiver_id,
                 m.client_id, m.type, m.content, m.created_at, m.delivered_at, m.read_at,
                 p.id, p.storage_key, p.width, p.height
            from messages m left join message_photos p on p.id = m.photo_id
           where m.id = v_earlier;
        return;
      end if;

      select c.user_a, o.id, o.is_online into v_user_a, v_other, v_other_online
        from conversations c
        join users o on (c.user_a = p_sender and o.id = c.user_b) or (c.user_b = p_sender and o.id = c.user_a)
       where c.id = p_conversation and o.is_active
         and not exists (
           select 1 from user_blocks ub
            where (ub.blocker_id = p_sender and ub.blocked_id = o.id) or (ub.blocked_id = p_sender and ub.blocker_id = o.id));
      if not found then
        raise exception using errcode = 'FK404', message = 'conversation';
      end if;

      v_limit := (p_limits ->> v_tier)::integer;
      if v_limit is not null and v_limit <> -1 then
        select mc.count into v_count from message_counters mc where mc.user_id = p_sender and mc.day = p_day;
        if coalesce(v_count, 0) >= v_limit then
          raise exception using errcode = 'FK429', message = v_tier;
        end if;
      end if;

      if p_type = 'photo' and not exists (
        select 1 from message_photos mp where mp.id = p_photo_id and mp.user_id = p_sender
      ) then
        raise exception using errcode = 'FK400', message = 'photo';
      end if;

      k1 := hashtext(p_sender);
      k2 := hashtext(v_other);
      perform pg_advisory_xact_lock(5005, least(k1, k2));
      perform pg_advisory_xact_lock(5005, greatest(k1, k2));

      insert into messages (id, conversation_id, sender_id, receiver_id, client_id, type, content, photo_id, created_at)
      values (p_id, p_conversation, p_sender, v_other, p_client_id, p_type, p_content,
              case when p_type = 'photo' then p_photo_id end, p_now);

      insert into message_counters as mc (user_id, day, count) values (p_sender, p_day, 1)
        on conflict (user_id, day) do update set count = mc.count + 1;

      -- A new message un-deletes the conversation for both (the recipient must see it).
      update conversations c
         set last_message_id = p_id, last_activity = p_now, updated_at = p_now,
             deleted_a = false, deleted_b = false,
             unread_a = c.unread_a + case when v_user_a = p_sender then 0 else 1 end,
             unread_b = c.unread_b + case when v_user_a = p_sender then 1 else 0 end
       where c.id = p_conversation;

      update users u
         set stats = u.stats || jsonb_build_object('messages', coalesce((u.stats ->> 'messages')::integer, 0) + 1)
       where u.id = p_sender;

      return query
        select true, v_name, v_other_online, m.id, m.seq, m.conversation_id, m.sender_id, m.receiver_id,
               m.client_id, m.type, m.content, m.created_at, m.delivered_at, m.read_at,
               p.id, p.storage_key, p.width, p.height
          from messages m left join message_photos p on p.id = m.photo_id
         where m.id = p_id;
    end
    $fn$
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function fmk_send_message(text, text, text, text, text, text, text, timestamptz, date, jsonb)`.execute(db);
}
