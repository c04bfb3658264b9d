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
select "ul"."user_id" as "id", "ul"."lat", "ul"."lng", "ul"."d", "u"."display_name", "u"."age", "u"."photo_url", "u"."phone_verified_at", "u"."is_online", "u"."current_mode", "u"."right_now_enabled", u.now_profile->>'rightNow' as "right_now", "s"."show_online_status", "s"."share_distance", "s"."cruising_private", (exists (
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
  and "l"."target_id" = $7)) as "open"
  from (
  select "ul"."user_id", "ul"."lat", "ul"."lng", (ul.geo <-> $8::cube) as "d"
  from "user_locations" as "ul"
  where "ul"."is_active" = $9
  and "ul"."last_updated" >= $10
  and "ul"."user_id" <> $11
  order by (ul.geo <-> $12::cube)
  limit $13) as "ul"
  inner join "users" as "u" on "u"."id" = "ul"."user_id"
  left join "user_settings" as "s" on "s"."user_id" = "ul"."user_id"
  where ("ul"."d" <= $14
  and "u"."is_active" = $15
  and "u"."onboarding_complete" = $16
  and coalesce(s.incognito_mode, false) = false
  and coalesce(s.profile_visibility, 'public') = 'public'
  and "u"."age" >= $17
  and "u"."age" <= $18
  and coalesce((u.mode_visibility->>$19)::boolean, false)
  and "ul"."user_id" not in (
  select "b"."blocked_id" as "other"
  from "user_blocks" as "b"
  where "b"."blocker_id" = $20 union all
  select "b2"."blocker_id" as "other"
  from "user_blocks" as "b2"
  where "b2"."blocked_id" = $21))
  order by "ul"."d", "ul"."user_id"
  limit $22;

-- next page, every advanced filter
select "ul"."user_id" as "id", "ul"."lat", "ul"."lng", "ul"."d", "u"."display_name", "u"."age", "u"."photo_url", "u"."phone_verified_at", "u"."is_online", "u"."current_mode", "u"."right_now_enabled", u.now_profile->>'rightNow' as "right_now", "s"."show_online_status", "s"."share_distance", "s"."cruising_private", (exists (
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
  and "l"."target_id" = $7)) as "open"
  from (
  select "ul"."user_id", "ul"."lat", "ul"."lng", (ul.geo <-> $8::cube) as "d"
  from "user_locations" as "ul"
  where "ul"."is_active" = $9
  and "ul"."last_updated" >= $10
  and "ul"."user_id" <> $11
  and ((ul.geo <-> $12::cube), ul.user_id) > ($13::float8, $14::text)
  order by (ul.geo <-> $15::cube)
  limit $16) as "ul"
  inner join "users" as "u" on "u"."id" = "ul"."user_id"
  left join "user_settings" as "s" on "s"."user_id" = "ul"."user_id"
  where ("ul"."d" <= $17
  and "u"."is_active" = $18
  and "u"."onboarding_complete" = $19
  and coalesce(s.incognito_mode, false) = false
  and coalesce(s.profile_visibility, 'public') = 'public'
  and "u"."age" >= $20
  and "u"."age" <= $21
  and coalesce((u.mode_visibility->>$22)::boolean, false)
  and "ul"."user_id" not in (
  select "b"."blocked_id" as "other"
  from "user_blocks" as "b"
  where "b"."blocker_id" = $23 union all
  select "b2"."blocker_id" as "other"
  from "user_blocks" as "b2"
  where "b2"."blocked_id" = $24)
  and ("u"."is_online" = $25
  and coalesce(s.show_online_status, true))
  and "u"."photo_url" is not null
  and u.now_profile->>'position' = $26
  and u.now_profile->'tribes' @> jsonb_build_array($27::text)
  and (u.now_profile->'quickStats'->>'height')::int >= $28
  and (u.now_profile->'quickStats'->>'height')::int <= $29)
  order by "ul"."d", "ul"."user_id"
  limit $30;

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

-- boosted men heading the first page
select "ul"."user_id" as "id", "ul"."lat", "ul"."lng", "ul"."d", "u"."display_name", "u"."age", "u"."photo_url", "u"."phone_verified_at", "u"."is_online", "u"."current_mode", "u"."right_now_enabled", u.now_profile->>'rightNow' as "right_now", "s"."show_online_status", "s"."share_distance", "s"."cruising_private", (exists (
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
  and "l"."target_id" = $7)) as "open"
  from (
  select "ul"."user_id", "ul"."lat", "ul"."lng", (ul.geo <-> $8::cube) as "d"
  from "boosts" as "bo"
  inner join "user_locations" as "ul" on "ul"."user_id" = "bo"."user_id"
  where "bo"."ends_at" > $9
  and "bo"."started_at" <= $10
  and "ul"."is_active" = $11
  and "ul"."last_updated" >= $12
  and "bo"."user_id" <> $13) as "ul"
  inner join "users" as "u" on "u"."id" = "ul"."user_id"
  left join "user_settings" as "s" on "s"."user_id" = "ul"."user_id"
  where ("ul"."d" <= $14
  and "u"."is_active" = $15
  and "u"."onboarding_complete" = $16
  and coalesce(s.incognito_mode, false) = false
  and coalesce(s.profile_visibility, 'public') = 'public'
  and "u"."age" >= $17
  and "u"."age" <= $18
  and coalesce((u.mode_visibility->>$19)::boolean, false)
  and "ul"."user_id" not in (
  select "b"."blocked_id" as "other"
  from "user_blocks" as "b"
  where "b"."blocker_id" = $20 union all
  select "b2"."blocker_id" as "other"
  from "user_blocks" as "b2"
  where "b2"."blocked_id" = $21))
  order by "ul"."d", "ul"."user_id"
  limit $22;
