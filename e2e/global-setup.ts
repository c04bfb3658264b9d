import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { warmPortraitCache } from '../packages/server/src/seed-portraits.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** coturn's server, for the calls' journey through a real TURN relay (e2e/calls.e2e.ts). */
export const TURNSERVER = '/usr/bin/turnserver';

/**
 * Before any end-to-end test: Debian's Chromium and coturn must be there. As root we install
 * them (apt-get); otherwise we stop with one line saying how.
 */
export default async function setup(): Promise<void> {
  const missing = [...(existsSync(CHROMIUM) ? [] : ['chromium']), ...(existsSync(TURNSERVER) ? [] : ['coturn'])];
  if (missing.length) {
    if (process.getuid?.() === 0) {
      console.log(`Missing: installing Debian ${missing.join(' and ')} with apt-get...`);
      execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
      execFileSync('apt-get', ['install', '-y', '-qq', ...missing], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    } else {
      throw new Error(`Missing: run \`sudo apt-get install -y ${missing.join(' ')}\` and run the tests again.`);
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
