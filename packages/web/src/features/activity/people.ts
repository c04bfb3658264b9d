import { useMatchesQuery } from '../game/queries.ts';
import { useConversationsQuery } from '../messaging/queries.ts';

export interface FmkPerson {
  uid: string;
  displayName: string;
}

/**
 * The FMK users a contact can be linked to: the user's matches and conversation partners, once
 * each, by name. A contact linked to someone no longer in either keeps the link (shown as "FMK user").
 */
export function useLinkablePeople() {
  const matches = useMatchesQuery();
  const conversations = useConversationsQuery();
  const people = new Map<string, FmkPerson>();
  for (const o of [...(matches.data ?? []).map((m) => m.other), ...(conversations.data ?? []).map((c) => c.other)]) {
    if (!people.has(o.uid)) people.set(o.uid, { uid: o.uid, displayName: o.displayName ?? 'FMK user' });
  }
  return {
    people: [...people.values()].sort((a, b) => a.displayName.localeCompare(b.displayName)),
    byId: people,
    isPending: matches.isPending || conversations.isPending,
    isError: matches.isError && conversations.isError,
    refetch: () => Promise.all([matches.refetch(), conversations.refetch()]),
  };
}
