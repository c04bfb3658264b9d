/** Typed constants of the web app, read in one place. The server holds every secret; the web has none. */
export const env = {
  apiBase: '/api/v1',
  isDev: import.meta.env.DEV,
  serviceWorkerUrl: '/sw.js',
  appName: 'FMK',
  /** The build's version (vite.config.ts: the commit it was built from), sent with bug reports. */
  appVersion: (import.meta.env.VITE_APP_VERSION as string | undefined) || 'dev',
} as const;
