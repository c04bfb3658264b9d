import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { signUpMember } from '../factories.ts';
import { DB_KINDS, type TestApp, useTestApp } from '../harness.ts';
import { fullMember } from '../member.ts';
import { multipartFile } from '../multipart.ts';
import { apiRoutes, exampleOf, fill } from './routes.ts';
import { recordScore } from './scoreboard.ts';
import { UUID, walkGets } from './walk.ts';

// A world of several members is built through the API before the probes; under a loaded machine it takes a while.
vi.setConfig({ hookTimeout: 300_000, testTimeout: 600_000 });

/** Every row of every table, as a multiset of JSON lines per table. */
async function snapshot(t: TestApp): Promise<Map<string, Map<string, number>>> {
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(t.db);
  const out = new Map<string, Map<string, number>>();
  for (const { table_name } of tables.rows) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table_name)}`.execute(t.db);
    const bag = new Map<string, number>();
    for (const row of rows.rows) {
      const line = JSON.stringify(row, (_k, v) => (v instanceof Uint8Array ? createHash('sha1').update(v).digest('hex') : v));
      bag.set(line, (bag.get(line) ?? 0) + 1);
    }
    out.set(table_name, bag);
  }
  return out;
}

/** Rows that appeared or vanished between two snapshots, as 'table: row' lines. */
function changed(before: Map<string, Map<string, number>>, after: Map<string, Map<string, number>>): string[] {
  const out: string[] = [];
  for (const [table, bagAfter] of after) {
    const bagBefore = before.get(table) ?? new Map<string, number>();
    for (const [line, n] of bagAfter) if ((bagBefore.get(line) ?? 0) < n) out.push(`+ ${table}: ${line}`);
    for (const [line, n] of bagBefore) if ((bagAfter.get(line) ?? 0) < n) out.push(`- ${table}: ${line}`);
  }
  return out;
}

/**
 * IDOR probes from the route list: member B takes every id that member A's own answers carry
 * (conversations, messages, photos, health records, contacts, reports, support threads, cards,
 * subscriptions, exports...) and replays each on every id-taking route, reading, writing and
 * deleting, with a body good enough to pass validation. Ids B can see for himself (public prompts,
 * spots, A's public profile and photos) and user ids (which address a person, not his data) are
 * left out. Goal: no probe answered 2xx, and no row of anyone but B changed by the probes.
 */
describe.each(DB_KINDS)('IDOR probes on %s', (kind) => {
  const t = useTestApp(kind);

  it("member B cannot read, change or delete member A's records by replaying their ids", async () => {
    const routes = apiRoutes(t().app).filter((r) => !r.path.startsWith('/admin'));
    const { me: a } = await fullMember(t());
    const b = await signUpMember(t().app, t().db);

    const users = await t().db.selectFrom('users').select('id').execute();
    const userIds = new Set(users.map((u) => u.id.toLowerCase()));
    const ofA = await walkGets(t().app, routes, a.headers);
    const ofB = await walkGets(t().app, routes, b.headers);
    // What B can reach from A's public profile is B's to see.
    const publicOfA = await t().app.inject({ method: 'GET', url: `/api/v1/users/${a.user.uid}`, headers: b.headers });
    for (const m of publicOfA.body.matchAll(UUID)) ofB.ids.add(m[0].toLowerCase());
    const privateIds = [...ofA.ids].filter((id) => !ofB.ids.has(id) && !userIds.has(id));
    expect(privateIds.length, 'A should own records with ids').toBeGreaterThan(10);

    // Work the uploads and messages left running (scoring, mails) finishes first: its row changes are not B's.
    const app = t().app as unknown as { moderation: { settle(): Promise<void> }; notifier: { settle(): Promise<void> } };
    await app.moderation.settle();
    await app.notifier.settle();
    const before = await snapshot(t());
    const photo = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer();
    const probed = routes.filter((r) => r.params.length > 0 && r.key !== 'POST /auth/logout');
    const successes: string[] = [];
    let probes = 0;
    let noOps = 0;
    for (const r of probed) {
      for (const id of privateIds) {
        const values = r.params.map(() => id);
        const file = r.multipart ? multipartFile(photo) : null;
        const res = await t().app.inject({
          method: r.method,
          url: fill(r, values),
          headers: { ...b.headers, ...(file?.headers ?? {}) },
          ...(r.method === 'GET' || r.method === 'DELETE'
            ? {}
            : { payload: file ? file.payload : ((exampleOf(r.body ?? undefined) as object | null) ?? {}) }),
        });
        probes += 1;
        // A read that answers is a leak. A write is judged by what it changed (the row diff below): an
        // idempotent removal of something B never had (unblocking a stranger) answers 204 and changes nothing.
        if (res.statusCode < 300 && r.method === 'GET')
          successes.push(`${r.key} with ${id}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        else if (res.statusCode < 300) noOps += 1;
      }
    }
    const after = await snapshot(t());
    const bId = b.user.uid.toLowerCase();
    const foreignChanges = changed(before, after).filter((line) => !line.toLowerCase().includes(bId));

    recordScore({
      id: '02-idor',
      db: kind,
      measure: "IDOR probes: B replays A's ids on every id-taking route (read, write, delete)",
      figure: `${successes.length} successes, ${foreignChanges.length} foreign rows changed, in ${probes} probes (${probed.length} routes × ${privateIds.length} ids; ${noOps} writes answered as no-ops)`,
      goal: '0 successes, 0 rows changed',
      pass: successes.length === 0 && foreignChanges.length === 0,
    });
    expect(foreignChanges).toEqual([]);
    expect(successes).toEqual([]);
  });
});
