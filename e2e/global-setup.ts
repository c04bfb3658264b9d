import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { warmPortraitCache } from '../packages/server/src/seed-portraits.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Before any end-to-end test: Debian's Chromium must be there. As root we install it
 * (apt-get); otherwise we stop with one line saying how.
 */
export default async function setup(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    if (process.getuid?.() === 0) {
      console.log('Chromium is missing: installing Debian chromium with apt-get...');
      execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
      execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    } else {
      throw new Error('Chromium is missing: run `sudo apt-get install -y chromium` and run the tests again.');
    }
  }
  const index = path.resolve(import.meta.dirname, '../packages/web/dist/index.html');
  if (!existsSync(index)) throw new Error('The web app is not built: run `npm run build` first (npm run test:e2e does it).');
  // The journeys seed demo men: their portraits are rendered here once, not inside a test's time limit.
  const t = Date.now();
  const { rendered } = await warmPortraitCache();
  if (rendered > 0)
    console.log(`Rendered ${rendered} demo portraits into the cache in ${((Date.now() - t) / 1000).toFixed(1)} s.`);
}
