import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../../db/index.ts';
import { chordForKm } from '../../platform/geo.ts';
import {
  boostedCandidatesQuery,
  type GridFilters,
  type GridViewer,
  gridPageQuery,
  gridViewerQuery,
  nearestExtentQuery,
} from './repo.ts';

/** The grid's hot SQL, committed as a file (STYLE.md #8): a change to it shows up as an SQL diff. */
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

const viewer: GridViewer = {
  id: 'viewer',
  lat: 37.7765,
  lng: -122.4172,
  mode: 'dating',
  seedDay: '2026-06-01',
  today: '2026-06-01',
};
const basic: GridFilters = {
  ageMin: 18,
  ageMax: 50,
  maxChord: chordForKm(80.4672),
  freshSince: new Date('2026-05-02T12:00:00Z'),
};

describe('grid SQL', () => {
  it('matches the committed snapshot', async () => {
    const parts = [
      ['viewer', gridViewerQuery(db, 'viewer', '2026-06-01').compile().sql],
      ['first page, basic filters', gridPageQuery(db, viewer, basic, null, 61, 244).compile().sql],
      [
        'next page, every advanced filter',
        gridPageQuery(
          db,
          { ...viewer, mode: 'now' },
          { ...basic, onlineOnly: true, withPhotos: true, position: 'Top', tribe: 'Bear', heightMin: 170, heightMax: 190 },
          { d: 1234.5, id: 'u1' },
          61,
          244,
        ).compile().sql,
      ],
      ['is a short page the end?', nearestExtentQuery(db, viewer, basic, null, 244).compile().sql],
      [
        'running boosts near the viewer (their page: the rules over them, as over a list of candidates)',
        boostedCandidatesQuery(db, viewer, basic, new Date('2026-06-01T12:00:00Z')).compile().sql,
      ],
    ];
    const text = parts.map(([name, sql]) => `-- ${name}\n${pretty(sql!)};\n`).join('\n');
    await expect(text).toMatchFileSnapshot('./__snapshots__/grid.sql');
  });
});
