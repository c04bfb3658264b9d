-- fmk_send_message (and fmk_earlier_message, which it calls) as the migrations leave them:
-- pg_get_functiondef without the schema. Written by send-message.test.ts ('vitest -u' after a
-- migration that changes the send); the test fails while this file and the database differ.

CREATE OR REPLACE FUNCTION fmk_send_message(p_id text, p_sender text, p_conversation text, p_client_id text, p_type text, p_content text, p_photo_id text, p_now timestamp with time zone, p_day date, p_limits jsonb)
 RETURNS TABLE(created boolean, sender_name text, other_online boolean, id text, seq bigint, conversation_id text, sender_id text, receiver_id text, client_id text, type text, content text, created_at timestamp with time zone, delivered_at timestamp with time zone, read_at timestamp with time zone, photo_id text, storage_key text, width integer, height integer)
 LANGUAGE plpgsql
AS $function$
    declare
      v_name text;
      v_tier text;
      v_limit integer;
      v_count integer;
      v_ok boolean;
      v_user_a text;
      v_other text;
      v_other_online boolean;
      v_from_ok boolean;
      v_unverified text;
      k1 integer;
      k2 integer;
      v_seq bigint;
    begin
      select s.display_name,
             case when s.has_lifetime_premium and s.subscription_tier = 'free' then 'premium' else s.subscription_tier end,
             c.user_a, o.id, o.is_online,
             coalesce(o.is_active, false) and not exists (
               select 1 from user_blocks ub
                where (ub.blocker_id = p_sender and ub.blocked_id = o.id) or (ub.blocked_id = p_sender and ub.blocker_id = o.id)),
             coalesce(os.messages_from, 'everyone') = 'everyone' or exists (
               select 1 from matches m where m.user_a = c.user_a and m.user_b = c.user_b),
             case when s.phone_verified_at is not null then null
                  when coalesce(os.block_unverified_users, false) then 'unverified contacts'
                  when coalesce(os.require_phone_verification, false) then 'phone verification' end
        into v_name, v_tier, v_user_a, v_other, v_other_online, v_ok, v_from_ok, v_unverified
        from users s
        left join conversations c on c.id = p_conversation and (c.user_a = p_sender or c.user_b = p_sender)
        left join users o on o.id = case when c.user_a = p_sender then c.user_b else c.user_a end
        left join user_settings os on os.user_id = o.id
       where s.id = p_sender and s.is_active;
      if not found then
        raise exception using errcode = 'FK401', message = 'sender';
      end if;

      if not v_ok then
        return query select * from fmk_earlier_message(p_sender, p_client_id, p_conversation, v_name);
        if found then return; end if;
        raise exception using errcode = 'FK404', message = 'conversation';
      end if;

      -- His message settings (core's message.send): only matches may write to him.
      if not v_from_ok then
        return query select * from fmk_earlier_message(p_sender, p_client_id, p_conversation, v_name);
        if found then return; end if;
        raise exception using errcode = 'FK403', message = 'matches only';
      end if;

      -- His communication safety (core's message.send): nothing from a sender without a verified phone.
      if v_unverified is not null then
        return query select * from fmk_earlier_message(p_sender, p_client_id, p_conversation, v_name);
        if found then return; end if;
        raise exception using errcode = 'FK403', message = v_unverified;
      end if;

      -- Both participants' ordering locks, in key order, before anything is counted or written:
      -- the sender's also serialises his own sends (his daily count, retries of one client id).
      k1 := hashtext(p_sender);
      k2 := hashtext(v_other);
      perform pg_advisory_xact_lock(5005, least(k1, k2)), pg_advisory_xact_lock(5005, greatest(k1, k2));

      v_limit := (p_limits ->> v_tier)::integer;
      if v_limit is not null and v_limit <> -1 then
        select mc.count into v_count from message_counters mc where mc.user_id = p_sender and mc.day = p_day;
        if coalesce(v_count, 0) >= v_limit then
          return query select * from fmk_earlier_message(p_sender, p_client_id, p_conversation, v_name);
          if found then return; end if;
          raise exception using errcode = 'FK429', message = v_tier;
        end if;
      end if;

      if p_type = 'photo' and not exists (
        select 1 from message_photos mp where mp.id = p_photo_id and mp.user_id = p_sender
      ) then
        return query select * from fmk_earlier_message(p_sender, p_client_id, p_conversation, v_name);
        if found then return; end if;
        raise exception using errcode = 'FK400', message = 'photo';
      end if;

      insert into messages (id, conversation_id, sender_id, receiver_id, client_id, type, content, photo_id, created_at)
      values (p_id, p_conversation, p_sender, v_other, p_client_id, p_type, p_content,
              case when p_type = 'photo' then p_photo_id end, p_now)
      on conflict on constraint messages_client do nothing
      returning messages.seq into v_seq;
      if not found then
        return query select * from fmk_earlier_message(p_sender, p_client_id, p_conversation, v_name);
        return;
      end if;

      insert into message_counters as mc (user_id, day, count) values (p_sender, p_day, 1)
        on conflict (user_id, day) do update set count = mc.count + 1;

      -- A new message un-deletes the conversation for both (the recipient must see it).
      update conversations c
         set last_message_id = p_id, last_activity = p_now, updated_at = p_now,
             deleted_a = false, deleted_b = false,
             unread_a = c.unread_a + case when v_user_a = p_sender then 0 else 1 end,
             unread_b = c.unread_b + case when v_user_a = p_sender then 1 else 0 end
       where c.id = p_conversation;

      return query
        select true, v_name, v_other_online, p_id, v_seq, p_conversation, p_sender, v_other,
               p_client_id, p_type, p_content, p_now, null::timestamptz, null::timestamptz,
               p.id, p.storage_key, p.width, p.height
          from (select 1) one
          left join message_photos p on p_type = 'photo' and p.id = p_photo_id;
    end
    $function$;

CREATE OR REPLACE FUNCTION fmk_earlier_message(p_sender text, p_client_id text, p_conversation text, p_name text)
 RETURNS TABLE(created boolean, sender_name text, other_online boolean, id text, seq bigint, conversation_id text, sender_id text, receiver_id text, client_id text, type text, content text, created_at timestamp with time zone, delivered_at timestamp with time zone, read_at timestamp with time zone, photo_id text, storage_key text, width integer, height integer)
 LANGUAGE plpgsql
AS $function$
    begin
      return query
        select false, p_name, null::boolean, m.id, m.seq, m.conversation_id, m.sender_id, m.receiver_id,
               m.client_id, m.type, m.content, m.created_at, m.delivered_at, m.read_at,
               p.id, p.storage_key, p.width, p.height
          from messages m left join message_photos p on p.id = m.photo_id
         where m.sender_id = p_sender and m.client_id = p_client_id;
      if found and not exists (
        select 1 from messages m
         where m.sender_id = p_sender and m.client_id = p_client_id and m.conversation_id = p_conversation
      ) then
        raise exception using errcode = 'FK409', message = 'client id';
      end if;
    end
    $function$;
