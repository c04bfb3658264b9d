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
 * Pages for the screens a cold start most often opens straight into (issue 8: the grid's LCP):
 * index.html plus modulepreload links for that screen's lazy chunks, so they download beside
 * the app's entry instead of after it has run. The server sends <name>.html for /<name>
 * (packages/server/src/platform/static.ts); every other path gets index.html.
 */
const ROUTE_PAGES = [{ route: '/grid', module: 'src/features/discovery/GridScreen.tsx' }];

function routePages(): Plugin {
  let outDir = '';
  const preloads = new Map<string, string[]>();
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
        const page = `${route.slice(1)}.html`;
        const chunk = [...chunks.values()].find((c) => c.isDynamicEntry && c.facadeModuleId?.endsWith(module));
        if (!chunk) throw new Error(`fmk-route-pages: no chunk for ${module}`);
        preloads.set(
          page,
          [...closure(chunk.fileName)].filter((f) => !loaded.has(f)),
        );
      }
    },
    closeBundle: {
      sequential: true,
      handler() {
        const index = join(outDir, 'index.html');
        if (!existsSync(index)) return;
        const html = readFileSync(index, 'utf8');
        for (const [page, files] of preloads) {
          const links = files.map((f) => `    <link rel="modulepreload" crossorigin href="/${f}">\n`).join('');
          writeFileSync(join(outDir, page), html.replace('</head>', `\n${links}  </head>`));
        }
      },
    },
  };
}

/**
 * src/early.ts as a classic async script in the page's head (issue 8: the grid's LCP). It is
 * built on its own (an IIFE, minified) rather than as part of the app: the app's modules run
 * only once all of them have downloaded, and the point of this one is to start the grid's
 * first page before that.
 */
function earlyScript(): Plugin {
  let fileName = '';
  return {
    name: 'fmk-early',
    apply: 'build',
    async buildStart() {
      const bundle = await rolldown({ input: join(import.meta.dirname, 'src/early.ts'), platform: 'browser' });
      try {
        const { output } = await bundle.generate({ format: 'iife', minify: true });
        const code = output[0].code;
        fileName = `assets/early-${createHash('sha256').update(code).digest('hex').slice(0, 8)}.js`;
        this.emitFile({ type: 'asset', fileName, source: code });
      } finally {
        await bundle.close();
      }
    },
    transformIndexHtml: {
      order: 'post',
      handler: () => [
        { tag: 'script', attrs: { src: `/${fileName}`, async: true, fetchpriority: 'high' }, injectTo: 'head-prepend' },
      ],
    },
  };
}

const outDir = join(import.meta.dirname, 'dist');

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
    earlyScript(),
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
    routePages(),
    precompress(),
  ],
  // zod is for the server and the types: the web build gets an inert stand-in (build/zod-inert.ts).
  resolve: { alias: { zod: join(import.meta.dirname, 'build/zod-inert.ts') } },
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
      // @fmk/core builds its zod schemas at module level; calls on `z` have no side effects, so
      // schemas the first screen never uses (and zod with them) can be dropped from its bundle.
      treeshake: {
        manualPureFunctions: ['z'],
        moduleSideEffects: (id: string) => !/[\\/]packages[\\/]core[\\/]src[\\/]/.test(id),
      },
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
