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
select "ul"."user_id" as "id", "ul"."lat", "ul"."lng", "ul"."d", "u"."display_name", "u"."age", "u"."photo_url", "u"."is_online", "u"."current_mode", "u"."right_now_enabled", u.now_profile->>'rightNow' as "right_now", "s"."show_online_status", (exists (
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
  and p.user_b = greatest($6, ul.user_id))) as "open"
  from (
  select "ul"."user_id", "ul"."lat", "ul"."lng", (ul.geo <-> $7::cube) as "d"
  from "user_locations" as "ul"
  where "ul"."is_active" = $8
  and "ul"."last_updated" >= $9
  and "ul"."user_id" <> $10
  order by (ul.geo <-> $11::cube)
  limit $12) as "ul"
  inner join "users" as "u" on "u"."id" = "ul"."user_id"
  left join "user_settings" as "s" on "s"."user_id" = "ul"."user_id"
  where ("ul"."d" <= $13
  and "u"."is_active" = $14
  and "u"."onboarding_complete" = $15
  and coalesce(s.incognito_mode, false) = false
  and "u"."age" >= $16
  and "u"."age" <= $17
  and coalesce((u.mode_visibility->>$18)::boolean, false)
  and "ul"."user_id" not in (
  select "b"."blocked_id" as "other"
  from "user_blocks" as "b"
  where "b"."blocker_id" = $19 union all
  select "b2"."blocker_id" as "other"
  from "user_blocks" as "b2"
  where "b2"."blocked_id" = $20))
  order by "ul"."d", "ul"."user_id"
  limit $21;

-- next page, every advanced filter
select "ul"."user_id" as "id", "ul"."lat", "ul"."lng", "ul"."d", "u"."display_name", "u"."age", "u"."photo_url", "u"."is_online", "u"."current_mode", "u"."right_now_enabled", u.now_profile->>'rightNow' as "right_now", "s"."show_online_status", (exists (
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
  and p.user_b = greatest($6, ul.user_id))) as "open"
  from (
  select "ul"."user_id", "ul"."lat", "ul"."lng", (ul.geo <-> $7::cube) as "d"
  from "user_locations" as "ul"
  where "ul"."is_active" = $8
  and "ul"."last_updated" >= $9
  and "ul"."user_id" <> $10
  and ((ul.geo <-> $11::cube), ul.user_id) > ($12::float8, $13::text)
  order by (ul.geo <-> $14::cube)
  limit $15) as "ul"
  inner join "users" as "u" on "u"."id" = "ul"."user_id"
  left join "user_settings" as "s" on "s"."user_id" = "ul"."user_id"
  where ("ul"."d" <= $16
  and "u"."is_active" = $17
  and "u"."onboarding_complete" = $18
  and coalesce(s.incognito_mode, false) = false
  and "u"."age" >= $19
  and "u"."age" <= $20
  and coalesce((u.mode_visibility->>$21)::boolean, false)
  and "ul"."user_id" not in (
  select "b"."blocked_id" as "other"
  from "user_blocks" as "b"
  where "b"."blocker_id" = $22 union all
  select "b2"."blocker_id" as "other"
  from "user_blocks" as "b2"
  where "b2"."blocked_id" = $23)
  and ("u"."is_online" = $24
  and coalesce(s.show_online_status, true))
  and "u"."photo_url" is not null
  and u.now_profile->>'position' = $25
  and u.now_profile->'tribes' @> jsonb_build_array($26::text)
  and (u.now_profile->'quickStats'->>'height')::int >= $27
  and (u.now_profile->'quickStats'->>'height')::int <= $28)
  order by "ul"."d", "ul"."user_id"
  limit $29;

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
