import { TtlCache } from '@fmk/core';

/**
 * The client cache rule of spec section 9 (at most 50 entries, 5 minutes): user data read
 * outside the query cache (public profiles) lives here.
 */
export const clientCache = new TtlCache<unknown>(() => Date.now());
