import { warmPortraitCache } from '../src/seed-portraits.ts';

/** Before the server suites: the demo seed's portraits rendered once, not inside a test's time limit. */
export default async function setup(): Promise<void> {
  const t = Date.now();
  const { rendered } = await warmPortraitCache();
  if (rendered > 0)
    console.log(`Rendered ${rendered} demo portraits into the cache in ${((Date.now() - t) / 1000).toFixed(1)} s.`);
}
