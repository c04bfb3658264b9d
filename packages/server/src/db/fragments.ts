import { type RawBuilder, sql } from 'kysely';

/**
 * Join condition for `users as other`: the member of a sorted pair row (matches,
 * conversations: user_a < user_b) who is not `me`, and only rows `me` belongs to.
 * Written as an OR of the two sides so each side can use its own index.
 */
export function otherMemberOf(pair: 'm' | 'c', me: string): RawBuilder<boolean> {
  const a = sql.ref(`${pair}.user_a`);
  const b = sql.ref(`${pair}.user_b`);
  return sql<boolean>`((${a} = ${me} and other.id = ${b}) or (${b} = ${me} and other.id = ${a}))`;
}

/**
 * What a card shows of a man from `users as u`: his name, age, photo with the model's verdict on
 * it, and the verified badge. Every list of located users selects it (below); the grid's rules in
 * memory (modules/discovery/repo/memory.ts) hold it.
 */
export const cardUserColumns = [
  'u.display_name',
  'u.age',
  'u.photo_url',
  // The model's verdict on that photo, for each viewer's content filter (platform/present.ts).
  'u.photo_nudity',
  'u.photo_sensitive',
  // The verified badge; never the number.
  'u.phone_verified_at',
] as const;

/**
 * What every list of located users selects of each, in this order: from `ul`, a nearest-first
 * walk of user_locations carrying its distance `d`, and `users as u` (the grid, nearby cruisers).
 */
export const listedUserColumns = ['ul.user_id as id', 'ul.lat', 'ul.lng', 'ul.d', ...cardUserColumns] as const;
