import { ADVANCED_FILTERS, type GridQuery, type Preferences } from '@fmk/core';
import { useCallback, useSyncExternalStore } from 'react';
import type { GridFilters } from '../../shared/queryKeys.ts';

/**
 * The grid's filters. Basic ones (age range, distance, showMe) are the user's preferences and
 * are saved to the user record; advanced ones (Premium) are kept on this device.
 */
export type AdvancedFilters = Pick<Partial<GridQuery>, (typeof ADVANCED_FILTERS)[number]>;

const KEY = 'fmk:grid-advanced';
const EVENT = 'fmk:grid-advanced';
let cachedRaw: string | null | undefined;
let cached: AdvancedFilters = {};

function parse(raw: string | null): AdvancedFilters {
  if (!raw) return {};
  try {
    const v: unknown = JSON.parse(raw);
    if (typeof v !== 'object' || v === null) return {};
    const out: Record<string, unknown> = {};
    for (const k of ADVANCED_FILTERS) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined && x !== null && x !== false && x !== '') out[k] = x;
    }
    return out as AdvancedFilters;
  } catch {
    return {};
  }
}

function snapshot(): AdvancedFilters {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(KEY);
  } catch {
    raw = null;
  }
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cached = parse(raw);
  }
  return cached;
}

function subscribe(l: () => void) {
  window.addEventListener(EVENT, l);
  return () => window.removeEventListener(EVENT, l);
}

export function storeAdvancedFilters(f: AdvancedFilters): void {
  try {
    if (Object.keys(parse(JSON.stringify(f))).length === 0) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, JSON.stringify(f));
  } catch {
    // Not kept: the filter applies until the page closes only through state.
  }
  window.dispatchEvent(new Event(EVENT));
}

/** The advanced filters kept on this device, outside React. */
export const readAdvancedFilters = (): AdvancedFilters => snapshot();

export function useAdvancedFilters(): [AdvancedFilters, (f: AdvancedFilters) => void] {
  const f = useSyncExternalStore(subscribe, snapshot, snapshot);
  return [f, useCallback((next: AdvancedFilters) => storeAdvancedFilters(next), [])];
}

export function basicFilters(p: Preferences): GridFilters {
  return { ageMin: p.ageRange[0], ageMax: p.ageRange[1], maxDistance: p.maxDistance, showMe: p.showMe };
}

export function activeAdvancedCount(f: AdvancedFilters): number {
  return Object.keys(parse(JSON.stringify(f))).length;
}
