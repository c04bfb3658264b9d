/// <reference types="vitest/config" />
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
function precompress(outDir: string): Plugin {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
  return {
    name: 'fmk-precompress',
    apply: 'build',
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
    precompress(outDir),
  ],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
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
