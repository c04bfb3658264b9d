-- viewer
select "u"."subscription_tier", "u"."has_lifetime_premium", "u"."preferences", "u"."current_mode", "ul"."lat", "ul"."lng", "ul"."is_active" as "location_active", (
  select count(*)::int as "n"
  from "grid_unlocks" as "g"
  where "g"."viewer_id" = $1
  and "g"."day" = $2) as "unlocked_today"
  from "users" as "u"
  left join "user_locations" as "ul" on "ul"."user_id" = "u"."id"
  where "u"."id" = $3;

-- first page, basic filters
select "ul"."user_id" as "id", "ul"."lat", "ul"."lng", "ul"."d", "u"."display_name", "u"."age", "u"."photo_url", "u"."photo_nudity", "u"."photo_sensitive", "u"."phone_verified_at", "loc"."shift_lat", "loc"."shift_lng", "u"."is_online", "u"."current_mode", "u"."right_now_enabled", u.now_profile->>'rightNow' as "right_now", "s"."show_online_status", "s"."share_distance", "s"."share_only_with_matches", "s"."hide_exact_location", "s"."cruising_private", (exists (
  select 1 as "one"
  from "grid_unlocks" as "g"
  where "g"."viewer_id" = $1
  and "g"."day" = $2
  and "g"."target_id" = "ul"."user_id")
  or exists (
  select 1 as "one"
  from "matches" as "p"
  where p.user_a = least($3, ul.user_id)
  and p.user_b = greatest($4, ul.user_id))
  or exists (
  select 1 as "one"
  from "conversations" as "p"
  where p.user_a = least($5, ul.user_id)
  and p.user_b = greatest($6, ul.user_id))
  or exists (
  select 1 as "one"
  from "selections" as "l"
  where "l"."chooser_id" = "ul"."user_id"
  and "l"."target_id" = $7)) as "open", case when coalesce(s.share_only_with_matches, false) then exists (
  select 1
  from matches m
  where m.user_a = least($8, ul.user_id)
  and m.user_b = greatest($9, ul.user_id)) else false end as "matched"
  from (
  select "ul"."user_id", "ul"."lat", "ul"."lng", (ul.geo <-> $10::cube) as "d"
  from "user_locations" as "ul"
  where "ul"."is_active" = $11
  and "ul"."last_updated" >= $12
  and "ul"."user_id" <> $13
  order by (ul.geo <-> $14::cube)
  limit $15) as "ul"
  inner join "users" as "u" on "u"."id" = "ul"."user_id"
  left join "user_settings" as "s" on "s"."user_id" = "ul"."user_id"
  inner join "user_locations" as "loc" on "loc"."user_id" = "ul"."user_id"
  where ("ul"."d" <= $16
  and "u"."is_active" = $17
  and "u"."onboarding_complete" = $18
  and coalesce(s.incognito_mode, false) = false
  and coalesce(s.share_location_enabled, true)
  and coalesce(s.profile_visibility, 'public') = 'public'
  and "u"."age" >= $19
  and "u"."age" <= $20
  and coalesce((u.mode_visibility->>$21)::boolean, false)
  and "ul"."user_id" not in (
  select "b"."blocked_id" as "other"
  from "user_blocks" as "b"
  where "b"."blocker_id" = $22 union all
  select "b2"."blocker_id" as "other"
  from "user_blocks" as "b2"
  where "b2"."blocked_id" = $23))
  order by "ul"."d", "ul"."user_id"
  limit $24;

-- next page, every advanced filter
select "ul"."user_id" as "id", "ul"."lat", "ul"."lng", "ul"."d", "u"."display_name", "u"."age", "u"."photo_url", "u"."photo_nudity", "u"."photo_sensitive", "u"."phone_verified_at", "loc"."shift_lat", "loc"."shift_lng", "u"."is_online", "u"."current_mode", "u"."right_now_enabled", u.now_profile->>'rightNow' as "right_now", "s"."show_online_status", "s"."share_distance", "s"."share_only_with_matches", "s"."hide_exact_location", "s"."cruising_private", (exists (
  select 1 as "one"
  from "grid_unlocks" as "g"
  where "g"."viewer_id" = $1
  and "g"."day" = $2
  and "g"."target_id" = "ul"."user_id")
  or exists (
  select 1 as "one"
  from "matches" as "p"
  where p.user_a = least($3, ul.user_id)
  and p.user_b = greatest($4, ul.user_id))
  or exists (
  select 1 as "one"
  from "conversations" as "p"
  where p.user_a = least($5, ul.user_id)
  and p.user_b = greatest($6, ul.user_id))
  or exists (
  select 1 as "one"
  from "selections" as "l"
  where "l"."chooser_id" = "ul"."user_id"
  and "l"."target_id" = $7)) as "open", case when coalesce(s.share_only_with_matches, false) then exists (
  select 1
  from matches m
  where m.user_a = least($8, ul.user_id)
  and m.user_b = greatest($9, ul.user_id)) else false end as "matched"
  from (
  select "ul"."user_id", "ul"."lat", "ul"."lng", (ul.geo <-> $10::cube) as "d"
  from "user_locations" as "ul"
  where "ul"."is_active" = $11
  and "ul"."last_updated" >= $12
  and "ul"."user_id" <> $13
  and ((ul.geo <-> $14::cube), ul.user_id) > ($15::float8, $16::text)
  order by (ul.geo <-> $17::cube)
  limit $18) as "ul"
  inner join "users" as "u" on "u"."id" = "ul"."user_id"
  left join "user_settings" as "s" on "s"."user_id" = "ul"."user_id"
  inner join "user_locations" as "loc" on "loc"."user_id" = "ul"."user_id"
  where ("ul"."d" <= $19
  and "u"."is_active" = $20
  and "u"."onboarding_complete" = $21
  and coalesce(s.incognito_mode, false) = false
  and coalesce(s.share_location_enabled, true)
  and coalesce(s.profile_visibility, 'public') = 'public'
  and "u"."age" >= $22
  and "u"."age" <= $23
  and coalesce((u.mode_visibility->>$24)::boolean, false)
  and "ul"."user_id" not in (
  select "b"."blocked_id" as "other"
  from "user_blocks" as "b"
  where "b"."blocker_id" = $25 union all
  select "b2"."blocker_id" as "other"
  from "user_blocks" as "b2"
  where "b2"."blocked_id" = $26)
  and ("u"."is_online" = $27
  and coalesce(s.show_online_status, true))
  and "u"."photo_url" is not null
  and u.now_profile->>'position' = $28
  and u.now_profile->'tribes' @> jsonb_build_array($29::text)
  and (u.now_profile->'quickStats'->>'height')::int >= $30
  and (u.now_profile->'quickStats'->>'height')::int <= $31)
  order by "ul"."d", "ul"."user_id"
  limit $32;

-- is a short page the end?
select count(*)::int as "count", max(n.d) as "max_d"
  from (
  select "ul"."user_id", "ul"."lat", "ul"."lng", (ul.geo <-> $1::cube) as "d"
  from "user_locations" as "ul"
  where "ul"."is_active" = $2
  and "ul"."last_updated" >= $3
  and "ul"."user_id" <> $4
  order by (ul.geo <-> $5::cube)
  limit $6) as "n";

-- running boosts near the viewer (their page: the rules over them, as over a list of candidates)
select "ul"."user_id", "ul"."lat", "ul"."lng", (ul.geo <-> $1::cube) as "d"
  from "boosts" as "bo"
  inner join "user_locations" as "ul" on "ul"."user_id" = "bo"."user_id"
  where "bo"."ends_at" > $2
  and "bo"."started_at" <= $3
  and "ul"."is_active" = $4
  and "ul"."last_updated" >= $5
  and "bo"."user_id" <> $6
  and (ul.geo <-> $7::cube) <= $8;
