import { brandLabel } from '@fmk/core';
import { useEffect } from 'react';
import { useAppPreferences } from '../shared/usePreferences.ts';

/** The document title carries the brand of the current appMode (spec section 1). */
export function DocumentTitle() {
  const [prefs] = useAppPreferences();
  const brand = brandLabel(prefs.appMode);
  useEffect(() => {
    document.title = brand;
  }, [brand]);
  return null;
}
