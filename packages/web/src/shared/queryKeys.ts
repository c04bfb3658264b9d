import type { AppMode, GridQuery, ProfileMode } from '@fmk/core';

/**
 * Query keys of the lists other features refresh (a block, a mode change, a profile opened, a
 * live event) or keep offline. They live here, not in their feature's queries.ts, so that doing
 * so imports no other feature and features keep depending on each other one way only.
 */

/** The grid's filters as sent: basic ones from preferences, advanced ones (Premium) local. */
export type GridFilters = Omit<Partial<GridQuery>, 'cursor' | 'limit'>;

/**
 * Query keys of the grid. A change of appMode refreshes everything under `all` (spec section 4);
 * the filters are part of the key so a change of filters starts a fresh list.
 */
export const discoveryKeys = {
  all: ['discovery'] as const,
  grids: ['discovery', 'grid'] as const,
  grid: (appMode: AppMode, mode: ProfileMode, filters: GridFilters = {}) =>
    [...discoveryKeys.all, 'grid', appMode, mode, filters] as const,
};

export const gameKeys = {
  all: ['game'] as const,
  matches: () => [...gameKeys.all, 'matches'] as const,
  likes: () => [...gameKeys.all, 'likes'] as const,
  badges: () => [...gameKeys.all, 'badges'] as const,
};

export const messagingKeys = {
  all: ['messaging'] as const,
  conversations: () => [...messagingKeys.all, 'conversations'] as const,
  conversation: (id: string) => [...messagingKeys.all, 'conversation', id] as const,
};

/** Support's reports and conversations: a live answer from staff refreshes them. */
export const supportKeys = {
  all: ['support'] as const,
  reports: () => [...supportKeys.all, 'reports'] as const,
  threads: () => [...supportKeys.all, 'threads'] as const,
  thread: (id: string) => [...supportKeys.all, 'thread', id] as const,
};

/** The member's settings store (GET /me/settings): the safety score and chat photos read it. */
export const settingsKeys = {
  all: ['settings'] as const,
  mine: () => [...settingsKeys.all, 'mine'] as const,
};
