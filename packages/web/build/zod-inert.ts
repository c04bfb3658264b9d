/**
 * What the web build gets for `zod` (vite.config.ts, resolve.alias). @fmk/core declares the API's
 * schemas with zod at module level for the server, which validates every request and answer;
 * the web app only takes their types. Yet bundling core meant building every schema at start
 * and shipping zod (about 20 kB gzipped) on the first screen (issue 8). This stand-in accepts
 * every schema-building call and returns itself, at no cost. Parsing with it is a mistake and
 * says so loudly: validation belongs to the server (or to a lazy chunk importing zod itself).
 */
const REFUSED = new Set(['parse', 'safeParse', 'parseAsync', 'safeParseAsync', 'decode', 'encode']);

// biome-ignore lint/suspicious/noExplicitAny: a stand-in for any chain of zod's builders.
const inert: any = new Proxy(() => {}, {
  get(_target, key) {
    if (key === Symbol.toPrimitive || key === 'then') return undefined;
    if (typeof key === 'string' && REFUSED.has(key))
      throw new Error(`zod.${key} is not available in the web build: the server validates (see build/zod-inert.ts)`);
    return inert;
  },
  apply: () => inert,
  construct: () => inert,
});

export const z = inert;
export default inert;
