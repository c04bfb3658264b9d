import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PASSWORD, setTier, signUpMember, signUpStaff } from '../factories.ts';
import { DB_KINDS, type TestApp, useTestApp } from '../harness.ts';
import { distinctRequests, type FuzzRequest } from './fuzz-inputs.ts';
import { apiRoutes, type RouteInfo } from './routes.ts';
import { recordScore } from './scoreboard.ts';
import { installWriteLog, ownWrites, refused } from './write-log.ts';

vi.setConfig({ hookTimeout: 300_000, testTimeout: 3_600_000 });

/**
 * Inputs per route on each database: the thousand the scoreboard asks for. On a two-core machine
 * 221,000 inputs took 521 s on PGlite and 375 s on PostgreSQL on a slower one, 172 s and 156 s in
 * a clean CI run on a faster, quiet one (an input costs about 2 ms of CPU: those refused at validation
 * about 1 ms, the sixth served in full about 4 ms, a third of PGlite's share its WASM).
 * FUZZ_RUNS=<n> runs n per route instead (a quick look while working on a route).
 */
const RUNS = Number(process.env.FUZZ_RUNS) || 1000;
/** Tables that exist to remember refusals: failed sign-ins, for the throttle that answers the next ones. */
const RECORDS_REFUSALS = new Set(['auth_attempts']);

// Routes that end the caller's session or account go last, so the rest run signed in.
const ENDS_SESSION = [
  'POST /auth/sessions/sign-out-others',
  'DELETE /auth/sessions/:id',
  'POST /account/delete',
  'POST /auth/logout',
];

/** The query keys each route documents (its OpenAPI parameters), so the fuzzer varies real ones too. */
function queryKeys(t: TestApp): Map<string, string[]> {
  const paths = (t.app.swagger() as { paths?: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>> })
    .paths;
  const out = new Map<string, string[]>();
  for (const [p, item] of Object.entries(paths ?? {}))
    for (const [m, op] of Object.entries(item ?? {})) {
      const key = `${m.toUpperCase()} ${p.slice('/api/v1'.length).replace(/\{(\w+)\}/g, ':$1')}`;
      out.set(
        key,
        (op.parameters ?? []).filter((x) => x.in === 'query').map((x) => x.name),
      );
    }
  return out;
}

/**
 * Fuzzing (issue 22 item 4): fast-check inputs against every route of Fastify's route list through
 * inject, as a signed-in member (staff for /admin routes): wrong types, huge strings and arrays,
 * deep nesting, prototype keys, unicode (RTL, NUL, lone surrogates), SQL and path strings, broken
 * JSON, wrong content types, bad path parameters and query strings. Goal: no answer of 500 or
 * more, no unhandled rejection, and no row written by a refused (4xx) request.
 */
describe.each(DB_KINDS)('fuzzing every route on %s', (kind) => {
  const t = useTestApp(kind);
  const rejections: unknown[] = [];
  const onRejection = (e: unknown) => rejections.push(e);
  beforeAll(() => process.on('unhandledRejection', onRejection));
  afterAll(() => process.off('unhandledRejection', onRejection));

  it(`answers ${RUNS} hostile inputs per route with no 5xx and writes nothing when it refuses`, async () => {
    const routes = apiRoutes(t().app).sort((a, b) => ENDS_SESSION.indexOf(a.key) - ENDS_SESSION.indexOf(b.key));
    const keys = queryKeys(t());
    const newMember = async () => {
      const m = await signUpMember(t().app, t().db);
      await setTier(t().db, m.user.uid, 'platinum');
      return m;
    };
    let member = await newMember();
    let staff = await signUpStaff(t().app, t().db, 'owner', t().clock.now());
    /** A fuzzed route may end the session (sign-out, deletion): sign in again, or start over. */
    const stillSignedIn = async () => {
      if ((await t().app.inject({ method: 'GET', url: '/api/v1/me', headers: member.headers })).statusCode !== 200) {
        const res = await t().app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          payload: { email: member.user.email, password: PASSWORD },
        });
        if (res.statusCode === 200) member = { ...member, headers: { authorization: `Bearer ${res.json().token}` } };
        else member = await newMember();
      }
      if ((await t().app.inject({ method: 'GET', url: '/api/v1/admin/me', headers: staff.headers })).statusCode >= 400)
        staff = await signUpStaff(t().app, t().db, 'owner', t().clock.now());
    };

    const failures: string[] = [];
    const writes: string[] = [];
    let sent = 0;
    /** Refused requests during which another's background work wrote (cleared by sending them again alone). */
    let suspects = 0;
    const perRoute = new Map<string, number>();
    const started = Date.now();
    const cpu0 = process.cpuUsage();
    const send = (r: RouteInfo, req: FuzzRequest) =>
      t().app.inject({
        method: r.method,
        url: req.url,
        headers: { ...(r.path.startsWith('/admin') ? staff.headers : member.headers), ...req.headers },
        ...(req.payload !== undefined ? { payload: req.payload } : {}),
      });
    const db = t();
    const log = await installWriteLog(
      db.db,
      db.pglite ? { pglite: db.pglite } : { url: process.env.TEST_DATABASE_URL! },
      RECORDS_REFUSALS,
    );
    /** Forgets the writes so far: the fuzzer's own sign-ins, and what served requests left behind. */
    const settled = async () => {
      await db.app.notifier.settle();
      await db.app.moderation.settle();
      await log.sync();
      log.take();
    };
    await settled();
    for (const [n, r] of routes.entries()) {
      const inputs = distinctRequests(r, keys.get(r.key) ?? [], RUNS, 22_004 + n);
      const t0 = performance.now();
      for (const req of inputs) {
        const res = await send(r, req);
        sent += 1;
        if (res.statusCode >= 500) failures.push(`${r.key} ${res.statusCode} ${res.body.slice(0, 160)} <- ${req.what()}`);
        // Every request is checked on its own: whatever committed since the previous one is its doing.
        await log.sync();
        const wrote = log.take();
        if (wrote.length === 0) continue;
        if (refused(res.statusCode)) {
          const own = await ownWrites(log, () => send(r, req));
          if (own.length) writes.push(`${r.key} ${res.statusCode} <- ${req.what()}: ${[...new Set(own)].join(', ')}`);
          else suspects += 1;
        }
        // A served request may leave work running (a push, a mail, a photo's scoring): let what
        // can be waited for end here, so that its writes are not laid at the next request's door.
        else await settled();
      }
      perRoute.set(r.key, performance.now() - t0);
      await stillSignedIn();
      await settled();
    }
    await log.close();
    const seconds = (Date.now() - started) / 1000;
    const cpu = process.cpuUsage(cpu0);
    if (process.env.FUZZ_RUNS)
      console.log(
        `cpu ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, ${suspects} suspects`,
        [...perRoute].sort((a, b) => b[1] - a[1]).slice(0, 15),
        [...perRoute.values()].reduce((a, b) => a + b, 0),
        writes,
      );
    recordScore({
      id: '04-fuzz',
      db: kind,
      measure:
        'Fuzzing: hostile inputs (types, sizes, nesting, prototype keys, unicode, SQL and path strings, bad JSON and content types) on every route',
      figure: `${routes.length} routes, ${sent.toLocaleString('en')} inputs (${RUNS} per route) in ${seconds.toFixed(0)} s: ${failures.length} 5xx, ${rejections.length} unhandled rejections, ${writes.length} refused requests that wrote`,
      goal: '≥ 1,000 inputs per route; 0 5xx, 0 unhandled rejections, 0 writes on refusal',
      // Fewer than a thousand per route is short of the goal, however clean: the row says so.
      pass: RUNS >= 1000 && failures.length === 0 && rejections.length === 0 && writes.length === 0,
    });
    expect(failures.slice(0, 30)).toEqual([]);
    expect(rejections).toEqual([]);
    expect(writes.slice(0, 30)).toEqual([]);
  });
});
