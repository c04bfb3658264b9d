-- the viewer and the first look (one statement)
select "me".*, "r"."id" as "c_id", "r"."lat" as "c_lat", "r"."lng" as "c_lng", "r"."shift_lat" as "c_shift_lat", "r"."shift_lng" as "c_shift_lng", "r"."d" as "c_d", "r"."display_name" as "c_display_name", "r"."age" as "c_age", "r"."photo_url" as "c_photo_url", "r"."photo_nudity" as "c_photo_nudity", "r"."photo_sensitive" as "c_photo_sensitive", "r"."phone_verified_at" as "c_phone_verified_at", "r"."right_now_enabled" as "c_right_now_enabled", "r"."position" as "c_position", "r"."looking_for" as "c_looking_for", "r"."profile_right_now" as "c_profile_right_now", "r"."session_right_now" as "c_session_right_now", "r"."ends_at" as "c_ends_at", "r"."location_precision" as "c_location_precision", "r"."share_distance" as "c_share_distance", "r"."share_only_with_matches" as "c_share_only_with_matches", "r"."hide_exact_location" as "c_hide_exact_location", "r"."matched" as "c_matched"
  from (
  select "u"."id", "u"."is_active", "u"."app_mode", "u"."cruising_enabled", "u"."current_mode", "u"."subscription_tier", "u"."has_lifetime_premium", "u"."preferences", "s"."location_sharing_consent", "s"."location_precision", "ul"."lat", "ul"."lng", "ul"."is_active" as "location_active", "ul"."last_updated"
  from "users" as "u"
  left join "user_settings" as "s" on "s"."user_id" = "u"."id"
  left join "user_locations" as "ul" on "ul"."user_id" = "u"."id"
  where "u"."id" = $1) as "me"
  left join lateral (
  select "r0".*
  from (
  select "ul"."user_id" as "id", "ul"."lat", "ul"."lng", "ul"."d", "u"."display_name", "u"."age", "u"."photo_url", "u"."photo_nudity", "u"."photo_sensitive", "u"."phone_verified_at", "ul"."shift_lat", "ul"."shift_lng", "u"."right_now_enabled", u.now_profile->>'position' as "position", u.now_profile->'lookingFor' as "looking_for", u.now_profile->>'rightNow' as "profile_right_now", "cs"."right_now" as "session_right_now", "cs"."ends_at", "st"."location_precision", "st"."share_distance", "st"."share_only_with_matches", "st"."hide_exact_location", case when coalesce("st"."share_only_with_matches", false) then exists (
  select 1
  from matches mm
  where "mm"."user_a" = least($2, ul.user_id)
  and "mm"."user_b" = greatest($3, ul.user_id)) else false end as "matched"
  from (
  select "ul"."user_id", "ul"."lat", "ul"."lng", "ul"."shift_lat", "ul"."shift_lng", (ul.geo <-> (
  select cube(array[6371000 * cos(radians(vl.lat)) * cos(radians(vl.lng)), 6371000 * cos(radians(vl.lat)) * sin(radians(vl.lng)), 6371000 * sin(radians(vl.lat)), cube_ll_coord(vl.geo, 4)])
  from user_locations vl
  where vl.user_id = $4)) as "d"
  from "user_locations" as "ul"
  where "ul"."mode" = $5
  and "ul"."is_active" = $6
  and "ul"."last_updated" >= $7
  and "ul"."user_id" <> $8
  order by (ul.geo <-> (
  select cube(array[6371000 * cos(radians(vl.lat)) * cos(radians(vl.lng)), 6371000 * cos(radians(vl.lat)) * sin(radians(vl.lng)), 6371000 * sin(radians(vl.lat)), cube_ll_coord(vl.geo, 4)])
  from user_locations vl
  where vl.user_id = $9))
  limit $10) as "ul"
  inner join "cruise_sessions" as "cs" on "cs"."user_id" = "ul"."user_id"
  and "cs"."ended_at" is null
  and "cs"."ends_at" > $11
  inner join "users" as "u" on "u"."id" = "ul"."user_id"
  left join "user_settings" as "st" on "st"."user_id" = "ul"."user_id"
  where "ul"."d" <= $12
  and "u"."is_active" = $13
  and "u"."onboarding_complete" = $14
  and "u"."current_mode" = $15
  and coalesce(st.location_sharing_consent, false)
  and coalesce(st.share_location_enabled, true)
  and coalesce(st.incognito_mode, false) = false
  and coalesce(st.profile_visibility, 'public') = 'public'
  and (coalesce(st.cruising_private, false) = false
  or exists (
  select 1 as "one"
  from "matches" as "pm"
  where "pm"."user_a" = least($16, ul.user_id)
  and "pm"."user_b" = greatest($17, ul.user_id))
  or exists (
  select 1 as "one"
  from "conversations" as "pc"
  where "pc"."user_a" = least($18, ul.user_id)
  and "pc"."user_b" = greatest($19, ul.user_id)))
  and "ul"."user_id" not in (
  select "b"."blocked_id" as "other"
  from "user_blocks" as "b"
  where "b"."blocker_id" = $20 union all
  select "b2"."blocker_id" as "other"
  from "user_blocks" as "b2"
  where "b2"."blocked_id" = $21)
  order by "ul"."d", "ul"."user_id"
  limit $22) as "r0"
  where me.location_sharing_consent
  and me.location_active) as "r" on true
  order by "r"."d", "r"."id"

-- a wider look (sparse areas)
select "ul"."user_id" as "id", "ul"."lat", "ul"."lng", "ul"."d", "u"."display_name", "u"."age", "u"."photo_url", "u"."photo_nudity", "u"."photo_sensitive", "u"."phone_verified_at", "ul"."shift_lat", "ul"."shift_lng", "u"."right_now_enabled", u.now_profile->>'position' as "position", u.now_profile->'lookingFor' as "looking_for", u.now_profile->>'rightNow' as "profile_right_now", "cs"."right_now" as "session_right_now", "cs"."ends_at", "st"."location_precision", "st"."share_distance", "st"."share_only_with_matches", "st"."hide_exact_location", case when coalesce("st"."share_only_with_matches", false) then exists (
  select 1
  from matches mm
  where "mm"."user_a" = least($1, ul.user_id)
  and "mm"."user_b" = greatest($2, ul.user_id)) else false end as "matched"
  from (
  select "ul"."user_id", "ul"."lat", "ul"."lng", "ul"."shift_lat", "ul"."shift_lng", (ul.geo <-> (
  select cube(array[6371000 * cos(radians(vl.lat)) * cos(radians(vl.lng)), 6371000 * cos(radians(vl.lat)) * sin(radians(vl.lng)), 6371000 * sin(radians(vl.lat)), cube_ll_coord(vl.geo, 4)])
  from user_locations vl
  where vl.user_id = $3)) as "d"
  from "user_locations" as "ul"
  where "ul"."mode" = $4
  and "ul"."is_active" = $5
  and "ul"."last_updated" >= $6
  and "ul"."user_id" <> $7
  order by (ul.geo <-> (
  select cube(array[6371000 * cos(radians(vl.lat)) * cos(radians(vl.lng)), 6371000 * cos(radians(vl.lat)) * sin(radians(vl.lng)), 6371000 * sin(radians(vl.lat)), cube_ll_coord(vl.geo, 4)])
  from user_locations vl
  where vl.user_id = $8))
  limit $9) as "ul"
  inner join "cruise_sessions" as "cs" on "cs"."user_id" = "ul"."user_id"
  and "cs"."ended_at" is null
  and "cs"."ends_at" > $10
  inner join "users" as "u" on "u"."id" = "ul"."user_id"
  left join "user_settings" as "st" on "st"."user_id" = "ul"."user_id"
  where "ul"."d" <= $11
  and "u"."is_active" = $12
  and "u"."onboarding_complete" = $13
  and "u"."current_mode" = $14
  and coalesce(st.location_sharing_consent, false)
  and coalesce(st.share_location_enabled, true)
  and coalesce(st.incognito_mode, false) = false
  and coalesce(st.profile_visibility, 'public') = 'public'
  and (coalesce(st.cruising_private, false) = false
  or exists (
  select 1 as "one"
  from "matches" as "pm"
  where "pm"."user_a" = least($15, ul.user_id)
  and "pm"."user_b" = greatest($16, ul.user_id))
  or exists (
  select 1 as "one"
  from "conversations" as "pc"
  where "pc"."user_a" = least($17, ul.user_id)
  and "pc"."user_b" = greatest($18, ul.user_id)))
  and "ul"."user_id" not in (
  select "b"."blocked_id" as "other"
  from "user_blocks" as "b"
  where "b"."blocker_id" = $19 union all
  select "b2"."blocker_id" as "other"
  from "user_blocks" as "b2"
  where "b2"."blocked_id" = $20)
  order by "ul"."d", "ul"."user_id"
  limit $21

-- extent of the k nearest
select count(*)::int as "count", max(n.d) as "max_d"
  from (
  select "ul"."user_id", "ul"."lat", "ul"."lng", "ul"."shift_lat", "ul"."shift_lng", (ul.geo <-> (
  select cube(array[6371000 * cos(radians(vl.lat)) * cos(radians(vl.lng)), 6371000 * cos(radians(vl.lat)) * sin(radians(vl.lng)), 6371000 * sin(radians(vl.lat)), cube_ll_coord(vl.geo, 4)])
  from user_locations vl
  where vl.user_id = $1)) as "d"
  from "user_locations" as "ul"
  where "ul"."mode" = $2
  and "ul"."is_active" = $3
  and "ul"."last_updated" >= $4
  and "ul"."user_id" <> $5
  order by (ul.geo <-> (
  select cube(array[6371000 * cos(radians(vl.lat)) * cos(radians(vl.lng)), 6371000 * cos(radians(vl.lat)) * sin(radians(vl.lng)), 6371000 * sin(radians(vl.lat)), cube_ll_coord(vl.geo, 4)])
  from user_locations vl
  where vl.user_id = $6))
  limit $7) as "n"
