import type { AppMode } from '@fmk/core';

/** Spec section 1: FMK for both, F#K for fuck-only, #MK for marry-only. */
export function brandLabel(appMode: AppMode | null | undefined): string {
  if (appMode === 'fuck') return 'F#K';
  if (appMode === 'marry') return '#MK';
  return 'FMK';
}

export const TAGLINE = 'Fuck. Marry. Kill. Your call.';
