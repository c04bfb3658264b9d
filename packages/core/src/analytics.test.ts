import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyticsCsv, csvField, percent, shapeCohorts, shapeFunnel, shapeMix, toCsv } from './analytics.ts';

/** A small RFC 4180 reader, to check that what toCsv writes reads back as the same fields. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  return rows;
}

describe('retention cohorts', () => {
  it('fills every week from sign-up to now, newest cohort first, and leaves out empty cohorts', () => {
    const cohorts = shapeCohorts(
      [
        { cohort: '2026-05-18', size: 4 },
        { cohort: '2026-05-25', size: 2 },
        { cohort: '2026-05-11', size: 0 },
      ],
      [
        { cohort: '2026-05-18', week: 0, active: 4 },
        { cohort: '2026-05-18', week: 2, active: 1 },
        { cohort: '2026-05-25', week: 1, active: 1 },
      ],
      '2026-06-01',
    );
    expect(cohorts).toEqual([
      {
        cohort: '2026-05-25',
        size: 2,
        weeks: [
          { week: 0, active: 0, percent: 0 },
          { week: 1, active: 1, percent: 50 },
        ],
      },
      {
        cohort: '2026-05-18',
        size: 4,
        weeks: [
          { week: 0, active: 4, percent: 100 },
          { week: 1, active: 0, percent: 0 },
          { week: 2, active: 1, percent: 25 },
        ],
      },
    ]);
  });

  it('keeps every share between 0 and 100 and one week per week since sign-up', () => {
    const monday = (n: number) => new Date(Date.UTC(2026, 0, 5) + n * 7 * 86_400_000).toISOString().slice(0, 10);
    fc.assert(
      fc.property(
        fc.array(fc.record({ w: fc.integer({ min: 0, max: 11 }), size: fc.integer({ min: 0, max: 50 }) }), { maxLength: 12 }),
        fc.array(fc.record({ w: fc.integer({ min: 0, max: 11 }), week: fc.integer({ min: 0, max: 12 }), active: fc.nat(80) })),
        (sizes, actives) => {
          const bySize = new Map(sizes.map((s) => [s.w, s.size]));
          const out = shapeCohorts(
            [...bySize].map(([w, size]) => ({ cohort: monday(w), size })),
            actives.map((a) => ({ cohort: monday(a.w), week: a.week, active: a.active })),
            monday(11),
          );
          for (const c of out) {
            expect(c.size).toBeGreaterThan(0);
            expect(c.weeks.map((w) => w.week)).toEqual(Array.from({ length: c.weeks.length }, (_, i) => i));
            expect(c.weeks.length).toBe(11 - Number(sizes.find((s) => monday(s.w) === c.cohort)!.w) + 1);
            for (const w of c.weeks) {
              expect(w.active).toBeLessThanOrEqual(c.size);
              expect(w.percent).toBeGreaterThanOrEqual(0);
              expect(w.percent).toBeLessThanOrEqual(100);
            }
          }
        },
      ),
    );
  });
});

describe('the funnel', () => {
  it('gives each step its conversion from the one before and from sign-up', () => {
    expect(shapeFunnel({ signedUp: 4, onboarded: 3, matched: 3, messaged: 2 })).toEqual([
      { step: 'signedUp', label: 'Signed up', count: 4, ofPrevious: 100, ofSignedUp: 100 },
      { step: 'onboarded', label: 'Onboarding complete', count: 3, ofPrevious: 75, ofSignedUp: 75 },
      { step: 'matched', label: 'First match', count: 3, ofPrevious: 100, ofSignedUp: 75 },
      { step: 'messaged', label: 'First message', count: 2, ofPrevious: 66.7, ofSignedUp: 50 },
    ]);
    expect(shapeFunnel({ signedUp: 0, onboarded: 0, matched: 0, messaged: 0 }).map((s) => s.ofPrevious)).toEqual([100, 0, 0, 0]);
  });

  it('never rises from one step to the next, and its shares stay within 0 to 100', () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(1000), fc.nat(1000), fc.nat(1000), (signedUp, onboarded, matched, messaged) => {
        const f = shapeFunnel({ signedUp, onboarded, matched, messaged });
        for (let i = 1; i < f.length; i++) expect(f[i]!.count).toBeLessThanOrEqual(f[i - 1]!.count);
        for (const s of f) for (const p of [s.ofPrevious, s.ofSignedUp]) expect(p >= 0 && p <= 100).toBe(true);
      }),
    );
  });
});

describe('mix and CSV', () => {
  it('lists every known key, largest first', () => {
    expect(shapeMix([{ key: 'premium', count: 1 }], ['free', 'premium', 'platinum'])).toEqual([
      { key: 'premium', count: 1, percent: 100 },
      { key: 'free', count: 0, percent: 0 },
      { key: 'platinum', count: 0, percent: 0 },
    ]);
    expect(percent(1, 3)).toBe(33.3);
  });

  it('quotes a name with a comma or quote, and disarms a formula', () => {
    expect(csvField('Smith, "Jo"')).toBe('"Smith, ""Jo"""');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('plain')).toBe('plain');
    expect(csvField(-3)).toBe('-3');
    expect(toCsv(['a', 'b'], [['x,y', 1]])).toBe('a,b\r\n"x,y",1\r\n');
  });

  it('reads back field for field whatever the text', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string(), { minLength: 2, maxLength: 2 }), { maxLength: 5 }), (rows) => {
        const back = parseCsv(toCsv(['h1', 'h2'], rows));
        const disarm = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
        expect(back).toEqual([['h1', 'h2'], ...rows.map((r) => r.map(disarm))]);
      }),
    );
  });

  it('exports only counts and shares', () => {
    const csv = analyticsCsv('mix', {
      currentWeek: '2026-06-01',
      from: '2026-03-09',
      activeMeans: 'x',
      cohorts: [],
      funnel: [],
      modeMix: [{ key: 'dating', count: 2, percent: 100 }],
      tierMix: [{ key: 'free', count: 2, percent: 100 }],
    });
    expect(csv).toBe('dimension,value,members,percent\r\nmode,dating,2,100\r\ntier,free,2,100\r\n');
  });
});
