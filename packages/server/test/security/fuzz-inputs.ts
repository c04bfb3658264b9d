import fc from 'fast-check';
import { exampleOf, type JsonSchema, PREFIX, type RouteInfo } from './routes.ts';

/**
 * The fuzzer's inputs (fuzz.test.ts): for one route, requests a client could send that the
 * server must refuse or serve, never fail on. Each is a method, a URL (path parameters and query
 * string included, possibly malformed), headers and a raw payload, so that broken JSON, wrong
 * content types and invalid UTF-8 reach the server as bytes.
 */
export interface FuzzRequest {
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** What was varied, for the report of a failure (built only then: it is most of a huge input's cost). */
  what(): string;
}

/**
 * The longest URL a client can send: Node's HTTP parser refuses a request line and headers over
 * 16 KiB (431) before the app sees them, so `inject` (which has no such limit) is only fed URLs
 * that could arrive. Still far longer than any parameter the API takes.
 */
export const MAX_URL = 16 * 1024 - 512;

/** Strings that broke parsers, queries and file paths somewhere. */
const NASTY = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  '1; SELECT pg_sleep(1)',
  '\\',
  '%',
  '%00',
  '%2e%2e%2f',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd\u0000.jpg',
  '\u0000',
  '\u202eevil\u202c',
  '\u200f\u0627\u0644\u0639\u0631\u0628\u064a\u0629',
  '\ud800',
  '\udfff',
  '\ud83d',
  '\uffff',
  '🏳️‍🌈👨‍❤️‍💋‍👨',
  'Ω≈ç√∫',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  '{"$gt":""}',
  ['$', '{7*7}'].join(''),
  '{{7*7}}',
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '0',
  '1e309',
  '-0',
  '9007199254740993',
  '0x10',
  '',
  ' ',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '2026-13-45T99:99:99Z',
  '-999999-01-01',
];

const nasty = fc.constantFrom(...NASTY);
const huge = fc.constantFrom('a'.repeat(10_000), 'é'.repeat(70_000), '\u0000'.repeat(5000), '9'.repeat(400));
export const evilString = fc.oneof(
  { weight: 5, arbitrary: nasty },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: huge },
);
const evilNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308, Number.MIN_VALUE, 0.1),
);

/** Any JSON value, with prototype keys, the schema's own keys and nasty strings among the keys. */
function evilValue(keys: string[]) {
  const key = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', ...keys), evilString);
  return fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      evilString,
      evilNumber,
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('v'), { maxLength: 4 }),
      fc.dictionary(key, tie('v'), { maxKeys: 4 }),
    ),
  })).v;
}

const nested = (depth: number, open: string, close: string, inner = '1') => open.repeat(depth) + inner + close.repeat(depth);

/** Raw bodies that are not the JSON they claim to be, or JSON no schema expects. */
const RAW_BODIES = [
  '{',
  '{"a":',
  '[1,2',
  'nul',
  '{"a":1,}',
  "{'a':1}",
  '\u0000',
  '\ufeff{}',
  '"just a string"',
  '123',
  'null',
  'true',
  '[]',
  '{"__proto__":{"isAdmin":true,"role":"owner"}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '{"a":1,"a":2}',
  nested(5000, '[', ']'),
  nested(3000, '{"a":', '}'),
  `[${Array.from({ length: 100_000 }, () => '1').join(',')}]`,
  `{"x":"${'a'.repeat(1_000_000)}"}`,
  '{"a":1e999999}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'multipart/form-data',
  'application/xml',
  'image/jpeg',
  'application/octet-stream',
  '*/*',
  'application/json;;;',
  '',
];

const encoded = new Map<string, string>();
/**
 * Percent-encodes a string as UTF-8, lone surrogates as the bytes of one (invalid UTF-8 on purpose),
 * at most MAX_URL characters of it. The huge strings are a few constants: each is encoded once.
 */
export function encode(s: string): string {
  if (s.length < 256) return encodeAll(s);
  let e = encoded.get(s);
  if (e === undefined) {
    e = encodeAll(s).slice(0, MAX_URL);
    encoded.set(s, e);
  }
  return e;
}

function encodeAll(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...s]
      .map((ch) => {
        const c = ch.charCodeAt(0);
        if (c >= 0xd800 && c <= 0xdfff)
          return `%${(0xe0 | (c >> 12)).toString(16)}%${(0x80 | ((c >> 6) & 0x3f)).toString(16)}%${(0x80 | (c & 0x3f)).toString(16)}`;
        return encodeURIComponent(ch);
      })
      .join('');
  }
}

const VALID_ID = '00000000-0000-4000-8000-00000000f022';
/** A path parameter: mostly hostile, sometimes plausible, sometimes raw (unencoded) bytes. */
const param = fc.oneof(
  { weight: 4, arbitrary: evilString.map(encode) },
  { weight: 1, arbitrary: fc.constant(VALID_ID) },
  { weight: 1, arbitrary: fc.constantFrom('..', '%2F', '%2e%2e', '%ZZ', '%', '%C0%AF', '%E0%80%AF', '%ED%A0%80', ';', '?', '#') },
);

/** A query string: the route's own keys and prototype keys, hostile values, repeats and brackets. */
function queryOf(keys: string[]) {
  const k = fc.oneof(
    fc.constantFrom(
      ...keys,
      'limit',
      'cursor',
      '__proto__',
      'constructor',
      '__proto__[isAdmin]',
      'constructor[prototype][x]',
      'a[]',
    ),
    evilString.map(encode),
  );
  const v = fc.oneof(evilString.map(encode), evilNumber.map(String), fc.constantFrom('%ZZ', '%', '%ED%A0%80', 'a&b', '='));
  return fc.array(fc.tuple(k, v), { maxLength: 6 }).map((pairs) => pairs.map(([a, b]) => `${a}=${b}`).join('&'));
}

/** A JSON body: the route's example with one field made hostile, extra prototype keys, or anything. */
function bodyOf(schema: JsonSchema | null) {
  const keys = Object.keys(schema?.properties ?? {});
  const base = (exampleOf(schema ?? undefined) as Record<string, unknown> | null) ?? {};
  const value = evilValue(keys);
  const mutated = fc.tuple(fc.constantFrom(...(keys.length ? keys : ['x'])), value).map(([key, v]) => {
    const out: Record<string, unknown> = { ...base };
    Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    return JSON.stringify(out);
  });
  const proto = value.map((v) =>
    JSON.stringify({ ...base })
      .replace(/^\{/, `{"__proto__":${JSON.stringify(v) ?? 'null'},`)
      .replace(/,\}$/, '}'),
  );
  return fc.oneof(
    { weight: 6, arbitrary: mutated },
    { weight: 1, arbitrary: proto },
    { weight: 2, arbitrary: value.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_BODIES) },
  );
}

/** Requests for one route, as one fast-check arbitrary. */
export function requestsFor(route: RouteInfo, queryKeys: string[]): fc.Arbitrary<FuzzRequest> {
  const params = fc.array(param, { minLength: route.params.length, maxLength: route.params.length });
  const hasBody = route.method !== 'GET';
  return fc
    .record({
      params,
      query: fc.oneof({ weight: 1, arbitrary: fc.constant('') }, { weight: 2, arbitrary: queryOf(queryKeys) }),
      body: hasBody ? bodyOf(route.body) : fc.constant(undefined),
      type: fc.oneof(
        { weight: 3, arbitrary: fc.constant('application/json') },
        { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
      ),
    })
    .map(({ params: values, query, body, type }) => {
      let i = 0;
      const path = route.path.replace(/:(\w+)/g, () => values[i++] ?? VALID_ID);
      const headers: Record<string, string> = body !== undefined && type ? { 'content-type': type } : {};
      const what = () =>
        `params=${JSON.stringify(values.map((v) => v.slice(0, 40)))} query=${query.slice(0, 120)} type=${type} body=${(body ?? '').slice(0, 160)}`;
      return {
        url: `${PREFIX}${path}${query ? `?${query}` : ''}`.slice(0, MAX_URL),
        headers,
        ...(body !== undefined ? { payload: body } : {}),
        what,
      };
    });
}

/**
 * `n` different requests for a route. A repeat tests nothing the first did not, and fast-check
 * repeats a lot: a fifth of a thousand samples, and on a GET without parameters a third of them is
 * the bare URL, served in full each time (the most expensive input there is).
 */
export function distinctRequests(route: RouteInfo, queryKeys: string[], n: number, seed: number): FuzzRequest[] {
  const arb = requestsFor(route, queryKeys);
  const seen = new Set<string>();
  const out: FuzzRequest[] = [];
  for (let round = 0; out.length < n; round++) {
    if (round === 20) throw new Error(`${route.key}: fewer than ${n} different requests in ${20 * n} samples`);
    for (const req of fc.sample(arb, { numRuns: n, seed: seed + round * 1_000_003 })) {
      const key = `${req.url}\n${req.headers['content-type'] ?? ''}\n${req.payload ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(req);
      if (out.length === n) break;
    }
  }
  return out;
}
