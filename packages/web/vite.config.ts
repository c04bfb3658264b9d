/// <reference types="vitest/config" />
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
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

const outDir = join(import.meta.dirname, 'dist');

export default defineConfig({
  root: import.meta.dirname,
  plugins: [
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
    precompress(),
  ],
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
