import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../../db/index.ts';
import { nearbySearch } from './nearby.ts';
import { nearbyForViewerQuery, nearbyQuery, nearestNowExtent } from './repo/nearby.ts';

/** The nearby-cruisers SQL, committed as a file (STYLE.md #8): a change to it shows up as an SQL diff. */
const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** One clause a line, for a readable diff. */
function pretty(sql: string): string {
  return sql
    .replace(/ (from|inner join|left join|where|and|or|order by|limit|select) /g, '\n  $1 ')
    .replace(/\(select /g, '(\n  select ');
}

describe('nearby cruisers SQL', () => {
  it('matches the committed snapshot', async () => {
    const s = nearbySearch('viewer', 5, new Date('2026-06-01T12:00:00Z'));
    let extent = '';
    // The extent query executes: capture its SQL from the dummy driver's compile instead.
    const capture = new Kysely<DB>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (k) => new PostgresIntrospector(k),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
      log: (e) => {
        if (e.level === 'query') extent = e.query.sql;
      },
    });
    await nearestNowExtent(capture, s, 200).catch(() => undefined);
    const parts = [
      ['the viewer and the first look (one statement)', nearbyForViewerQuery(db, s, 50, 200).compile().sql],
      ['a wider look (sparse areas)', nearbyQuery(db, s, 50, 1600).compile().sql],
      ['extent of the k nearest', extent],
    ];
    await expect(parts.map(([name, sql]) => `-- ${name}\n${pretty(sql ?? '')}\n`).join('\n')).toMatchFileSnapshot(
      '__snapshots__/nearby.sql',
    );
  });
});
