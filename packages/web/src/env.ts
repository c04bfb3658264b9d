/** Typed constants of the web app (STYLE.md #13). The server holds every secret; the web has none. */
export const env = {
  apiBase: '/api/v1',
  isDev: import.meta.env.DEV,
  serviceWorkerUrl: '/sw.js',
  appName: 'FMK',
} as const;
