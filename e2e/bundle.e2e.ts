import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/**
 * The web budgets (README "Web budgets"), on the production build (npm run test:e2e builds
 * first): the JS the first screen loads, each lazy route's own JS, and the CSS, all gzipped; and the admin area
 * and the map stay out of the first screen. Sizes in kB of 1000 bytes, as Vite prints them.
 */
const BUDGET_KB = { firstScreen: 150, route: 55, css: 20 };

/** Lazy routes whose chunks a first visit also loads: the landing page is what "/" shows. */
const FIRST_SCREEN_ROUTES = ['src/features/auth/LandingScreen.tsx'];

/** The admin area's table and chart libraries: no member screen may load them, first or lazy. */
const ADMIN_ONLY_LIBRARIES: { what: string; test: (module: string) => boolean }[] = [
  { what: 'TanStack Table', test: (m) => /^node_modules\/@tanstack\/(react-table|table-core)\//.test(m) },
  { what: 'uPlot', test: (m) => m.startsWith('node_modules/uplot/') },
];

/** Code that must load only when visited: the admin area (its own guard included) loads nothing for members. */
const NOT_ON_FIRST_SCREEN: { what: string; test: (module: string) => boolean }[] = [
  { what: 'Leaflet', test: (m) => m.startsWith('node_modules/leaflet/') },
  { what: 'the cruise map', test: (m) => m.startsWith('packages/web/src/features/cruise/') },
  {
    what: 'the admin area',
    test: (m) => m.startsWith('packages/web/src/features/admin/'),
  },
  ...ADMIN_ONLY_LIBRARIES,
];

const DIST = path.resolve(import.meta.dirname, '../packages/web/dist');
/** Written by the fmk-build-meta plugin in packages/web/vite.config.ts. */
const META = path.resolve(import.meta.dirname, '../node_modules/.cache/fmk-web-build');

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

const manifest: Record<string, ManifestChunk> = JSON.parse(readFileSync(path.join(META, 'manifest.json'), 'utf8'));
const chunkModules: Record<string, string[]> = JSON.parse(readFileSync(path.join(META, 'chunk-modules.json'), 'utf8'));

const gzipBytes = (file: string) => gzipSync(readFileSync(path.join(DIST, file)), { level: 9 }).length;
const kb = (bytes: number) => bytes / 1000;

/** The manifest keys of these chunks and of everything they import statically, transitively. */
function staticClosure(keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the Vite manifest`);
    seen.add(key);
    for (const k of chunk.imports ?? []) visit(k);
  };
  for (const k of keys) visit(k);
  return seen;
}

const sizeOf = (keys: Iterable<string>) => [...keys].reduce((sum, k) => sum + gzipBytes(manifest[k]!.file), 0);

const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
if (!entryKey) throw new Error('The Vite manifest has no entry chunk');
const firstScreen = staticClosure([entryKey, ...FIRST_SCREEN_ROUTES]);

/** Each lazy chunk with what it needs beyond the first screen: what a visit to it downloads. */
const routes = Object.entries(manifest)
  .filter(([key, c]) => c.isDynamicEntry && !FIRST_SCREEN_ROUTES.includes(key))
  .map(([key]) => {
    const own = [...staticClosure([key])].filter((k) => !firstScreen.has(k));
    return { route: key.replace(/^src\//, ''), chunks: own.length, bytes: sizeOf(own) };
  })
  .sort((a, b) => b.bytes - a.bytes);

const cssFiles = readdirSync(path.join(DIST, 'assets')).filter((f) => f.endsWith('.css'));
const cssBytes = cssFiles.reduce((sum, f) => sum + gzipBytes(`assets/${f}`), 0);
/** The early script (src/early.ts), built apart from the chunk graph and loaded by every page. */
const earlyFiles = readdirSync(path.join(DIST, 'assets')).filter((f) => /^early-.*\.js$/.test(f));
if (earlyFiles.length !== 1) throw new Error(`expected one early script in dist/assets, found ${earlyFiles.length}`);
const firstScreenBytes = sizeOf(firstScreen) + gzipBytes(`assets/${earlyFiles[0]}`);

function table(): string {
  const row = (what: string, size: number, budget: number, note = '') =>
    `${kb(size) > budget ? 'OVER' : 'ok  '}  ${what.padEnd(52)} ${kb(size).toFixed(1).padStart(7)} kB  / ${String(budget).padStart(3)} kB  ${note}`;
  return [
    'Web bundle budgets (gzipped):',
    row(
      'first screen (entry + static imports + landing + early)',
      firstScreenBytes,
      BUDGET_KB.firstScreen,
      `${firstScreen.size + 1} files`,
    ),
    row('CSS, all files', cssBytes, BUDGET_KB.css, `${cssFiles.length} file(s)`),
    ...routes.map((r) => row(`lazy ${r.route}`, r.bytes, BUDGET_KB.route, `${r.chunks} chunk(s) beyond the first screen`)),
  ].join('\n');
}

describe('web bundle budgets', () => {
  console.log(table());

  it(`loads at most ${BUDGET_KB.firstScreen} kB of gzipped JS for the first screen`, () => {
    expect(kb(firstScreenBytes), table()).toBeLessThanOrEqual(BUDGET_KB.firstScreen);
  });

  it(`keeps every lazy route at most ${BUDGET_KB.route} kB of its own gzipped JS`, () => {
    expect(routes.length).toBeGreaterThan(10);
    const over = routes.filter((r) => kb(r.bytes) > BUDGET_KB.route).map((r) => `${r.route}: ${kb(r.bytes).toFixed(1)} kB`);
    expect(over, table()).toEqual([]);
  });

  it(`keeps the CSS at most ${BUDGET_KB.css} kB gzipped`, () => {
    expect(cssFiles.length).toBeGreaterThan(0);
    expect(kb(cssBytes), table()).toBeLessThanOrEqual(BUDGET_KB.css);
  });

  it('loads the admin area and the map only when visited', () => {
    const firstScreenModules = [...firstScreen].flatMap((k) => chunkModules[manifest[k]!.file] ?? []);
    expect(firstScreenModules.length).toBeGreaterThan(50);
    for (const { what, test } of NOT_ON_FIRST_SCREEN) {
      expect(firstScreenModules.filter(test), `${what} is in the first screen's chunks`).toEqual([]);
    }
    // The check above would pass vacuously if the paths moved: the admin screens must be found lazily.
    const lazyModules = Object.values(chunkModules).flat();
    expect(lazyModules).toContain('packages/web/src/features/admin/AdminArea.tsx');
    expect(lazyModules).toContain('packages/web/src/features/cruise/CruiseScreen.tsx');
  });

  it("keeps the admin area's table and chart libraries out of every member route", () => {
    // Every lazy route outside the admin area, with everything it loads statically.
    const memberRoutes = Object.entries(manifest).filter(
      ([key, c]) => c.isDynamicEntry && !key.startsWith('src/features/admin/') && !key.startsWith('../../node_modules/'),
    );
    expect(memberRoutes.length).toBeGreaterThan(10);
    for (const [key] of memberRoutes) {
      const modules = [...staticClosure([key])].flatMap((k) => chunkModules[manifest[k]!.file] ?? []);
      for (const { what, test } of ADMIN_ONLY_LIBRARIES) {
        expect(modules.filter(test), `${what} loads with ${key}`).toEqual([]);
      }
    }
    // Not vacuous: both are in the build, reached from the admin area only.
    const lazyModules = Object.values(chunkModules).flat();
    for (const { what, test } of ADMIN_ONLY_LIBRARIES) expect(lazyModules.some(test), `${what} is in the build`).toBe(true);
  });

  it("ships no zod at all: the web build takes core's types, the server validates", () => {
    const all = Object.values(chunkModules).flat();
    expect(all.filter((m) => m.includes('node_modules/zod/'))).toEqual([]);
    expect(all).toContain('packages/web/build/zod-inert.ts');
  });
});
