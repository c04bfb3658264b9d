import { defineConfig } from 'vitest/config';

// One runner, four tiers. Server and e2e tests boot real databases and a real browser,
// so they run in forked processes with generous timeouts; core and web stay fast.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'core', root: 'packages/core', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'packages/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          globalSetup: ['./test/global-setup.ts'],
          pool: 'forks',
          // A suite's set-up migrates a fresh database per kind; on a loaded 2-core CI machine that
          // took over a minute. Generous limits: a hang still fails, a slow machine does not.
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: 'packages/web/vite.config.ts',
        test: {
          name: 'web',
          root: 'packages/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['./src/test/setup.ts'],
          // A screen test renders the whole app; under load it can take longer than the 5 s default.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          include: ['**/*.e2e.ts'],
          globalSetup: ['./global-setup.ts'],
          pool: 'forks',
          fileParallelism: false,
          // A journey of a few screens took 25 s on a quiet machine and over 60 s on a loaded one.
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
