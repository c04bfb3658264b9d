/// <reference types="vitest/config" />
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { rolldown } from 'rolldown';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const BACKEND = process.env.FMK_BACKEND ?? 'http://localhost:8080';
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|webmanifest|json|txt)$/;

/**
 * Writes .br and .gz beside every text asset once everything (service worker included) is
 * emitted; the server serves them with @fastify/static `preCompressed` (STACK.md trap 9).
 */
function precompress(): Plugin {
  let outDir = '';
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
  return {
    name: 'fmk-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of walk(outDir)) {
          if (!COMPRESSIBLE.test(file)) continue;
          const raw = readFileSync(file);
          if (raw.length < 256) continue;
          writeFileSync(`${file}.br`, brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
          writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
        }
      },
    },
  };
}

/**
 * Where the build's chunk graph goes for the bundle budgets (e2e/bundle.e2e.ts): Vite's manifest
 * and, per chunk, its source modules (the manifest lists chunks only). Kept out of dist, which
 * the server publishes (and out of the linter's and git's way).
 */
const BUILD_META_DIR = join(import.meta.dirname, '../../node_modules/.cache/fmk-web-build');

function buildMeta(): Plugin {
  const root = join(import.meta.dirname, '../..');
  let outDir = '';
  let modules: Record<string, string[]> = {};
  return {
    name: 'fmk-build-meta',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    generateBundle(_options, bundle) {
      modules = {};
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue;
        modules[item.fileName] = Object.entries(item.modules)
          .filter(([, m]) => m.renderedLength > 0)
          .map(([id]) => relative(root, id).split(sep).join('/'));
      }
    },
    closeBundle: {
      sequential: true,
      handler() {
        const manifest = join(outDir, '.vite', 'manifest.json');
        if (!existsSync(manifest)) return;
        mkdirSync(BUILD_META_DIR, { recursive: true });
        renameSync(manifest, join(BUILD_META_DIR, 'manifest.json'));
        rmSync(join(outDir, '.vite'), { recursive: true, force: true });
        writeFileSync(join(BUILD_META_DIR, 'chunk-modules.json'), JSON.stringify(modules, null, 1));
      },
    },
  };
}

/**
 * Pages for the screens a cold start most often opens straight into (the grid's first screen,
 * README "Web budgets"). The server sends <name>.html for /<name>
 * (packages/server/src/platform/static.ts); every other path gets index.html.
 *
 * grid.html does not load the app at once: in place of the entry and its preloads it carries
 * src/start.ts (built on its own, like early.ts), which fetches them, and the grid screen's
 * chunks, once the early script has painted the grid's first screen from the grid's first page.
 */
const ROUTE_PAGES = [{ route: '/grid', module: 'src/features/discovery/GridScreen.tsx' }];

function routePages(start: { fileName: () => string }): Plugin {
  let outDir = '';
  const pages = new Map<string, { entry: string; preload: string[] }>();
  return {
    name: 'fmk-route-pages',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    generateBundle(_options, bundle) {
      const chunks = new Map(Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])));
      const closure = (file: string, seen = new Set<string>()) => {
        if (seen.has(file)) return seen;
        seen.add(file);
        for (const f of chunks.get(file)?.imports ?? []) closure(f, seen);
        return seen;
      };
      const entry = [...chunks.values()].find((c) => c.isEntry);
      if (!entry) return;
      const loaded = closure(entry.fileName);
      for (const { route, module } of ROUTE_PAGES) {
        const chunk = [...chunks.values()].find((c) => c.isDynamicEntry && c.facadeModuleId?.endsWith(module));
        if (!chunk) throw new Error(`fmk-route-pages: no chunk for ${module}`);
        const screen = [...closure(chunk.fileName)].filter((f) => !loaded.has(f));
        pages.set(`${route.slice(1)}.html`, {
          entry: entry.fileName,
          preload: [...loaded, ...screen].filter((f) => f !== entry.fileName),
        });
      }
    },
    closeBundle: {
      sequential: true,
      handler() {
        const index = join(outDir, 'index.html');
        if (!existsSync(index)) return;
        const lines = readFileSync(index, 'utf8').split('\n');
        for (const [page, { entry, preload }] of pages) {
          // Vite writes the entry's script and each preload on a line of its own.
          const entryTag = `<script type="module" crossorigin src="/${entry}"></script>`;
          const at = lines.findIndex((l) => l.trim() === entryTag);
          if (at < 0) throw new Error(`fmk-route-pages: no ${entryTag} in index.html`);
          const indent = lines[at]!.slice(0, lines[at]!.indexOf('<'));
          const startTag = `${indent}<script type="module" crossorigin src="/${start.fileName()}" data-fmk-entry="/${entry}" data-fmk-preload="${preload.map((f) => `/${f}`).join(' ')}"></script>`;
          const html = lines
            .map((l, i) => (i === at ? startTag : l))
            .filter((l) => !l.trim().startsWith('<link rel="modulepreload"'))
            .join('\n');
          writeFileSync(join(outDir, page), html);
        }
      },
    },
  };
}

/** zod is for the server and the types: the web build gets an inert stand-in (build/zod-inert.ts). */
const ZOD_INERT = { zod: join(import.meta.dirname, 'build/zod-inert.ts') };

/**
 * @fmk/core builds its zod schemas at module level; calls on `z` have no side effects, so
 * schemas a bundle never uses (and zod with them) can be dropped from it.
 */
const CORE_TREESHAKE = {
  manualPureFunctions: ['z'],
  moduleSideEffects: (id: string) => !/[\\/]packages[\\/]core[\\/]src[\\/]/.test(id),
};

/**
 * src/early.ts as a classic async script in the page's head (the grid's first screen, README
 * "Web budgets"), and src/start.ts, the module grid.html starts the app with (fmk-route-pages).
 * Both are built on their own (minified) rather than as part of the app: the app's modules run
 * only once all of them have downloaded, and the point of these is to run before that.
 */
function earlyScripts(): Plugin & { start: { fileName: () => string } } {
  const files = { early: '', start: '' };
  const build = async (input: string, format: 'iife' | 'es') => {
    // Shaken as the app is (below): they take a few pure helpers of @fmk/core, not its schemas.
    const bundle = await rolldown({
      input: join(import.meta.dirname, input),
      platform: 'browser',
      resolve: { alias: ZOD_INERT },
      treeshake: CORE_TREESHAKE,
    });
    try {
      const { output } = await bundle.generate({ format, minify: true });
      return output[0].code;
    } finally {
      await bundle.close();
    }
  };
  return {
    name: 'fmk-early',
    apply: 'build',
    start: { fileName: () => files.start },
    async buildStart() {
      for (const [key, input, format] of [
        ['early', 'src/early.ts', 'iife'],
        ['start', 'src/start.ts', 'es'],
      ] as const) {
        const code = await build(input, format);
        files[key] = `assets/${key}-${createHash('sha256').update(code).digest('hex').slice(0, 8)}.js`;
        this.emitFile({ type: 'asset', fileName: files[key], source: code });
      }
    },
    transformIndexHtml: {
      order: 'post',
      handler: () => [
        {
          tag: 'script',
          attrs: { src: `/${files.early}`, async: true, fetchpriority: 'high', 'data-fmk-early': true },
          injectTo: 'head-prepend',
        },
      ],
    },
  };
}

const outDir = join(import.meta.dirname, 'dist');
const early = earlyScripts();

/** The version bug reports carry (env.ts appVersion): APP_VERSION when given, else the commit built. */
function appVersion(): string {
  if (process.env.APP_VERSION) return process.env.APP_VERSION;
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: import.meta.dirname, encoding: 'utf8' }).trim();
  } catch {
    return 'dev';
  }
}
process.env.VITE_APP_VERSION ??= appVersion();

export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    early,
    react(),
    tailwindcss(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'prompt',
      // We register /sw.js ourselves (src/features/pwa/registerSW.ts).
      injectRegister: false,
      manifestFilename: 'manifest.webmanifest',
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        name: 'FMK',
        short_name: 'FMK',
        description: 'Fuck. Marry. Kill. Your call. Dating and hookups for men.',
        theme_color: '#FF4458',
        background_color: '#ffffff',
        display: 'standalone',
        orientation: 'portrait',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
      },
      devOptions: { enabled: false },
    }),
    buildMeta(),
    routePages(early.start),
    precompress(),
  ],
  resolve: { alias: ZOD_INERT },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    // The chunk graph the bundle budgets walk (moved out of dist by fmk-build-meta).
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The libraries and shared code every screen needs, in one file rather than a dozen small
          // chunks: over HTTP/1.1 (six connections) each extra file costs the first screen a round
          // trip on a phone network (issue 8, Lighthouse).
          groups: [
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](react-query|query-core)|zod)[\\/]|packages[\\/]core[\\/]/,
            },
          ],
        },
      },
      treeshake: CORE_TREESHAKE,
    },
  },
  server: {
    proxy: {
      '/api': { target: BACKEND, changeOrigin: true, ws: true },
      '/files': { target: BACKEND, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: BACKEND, changeOrigin: true, ws: true },
      '/files': { target: BACKEND, changeOrigin: true },
    },
  },
  test: {
    environment: 'happy-dom',
  },
});
