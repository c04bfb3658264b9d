import { describe, expect, it } from 'vitest';

/** Every source file of the web app outside src/api, as text. */
const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!./**'], { query: '?raw', import: 'default', eager: true });

describe('API calls outside src/api', () => {
  // A hand-written answer type (api<T>) is what the table replaces: T there is checked by nothing.
  it('go through call() and the endpoint table, never api() itself', () => {
    const files = Object.entries(sources);
    expect(files.length).toBeGreaterThan(100);
    const direct = files.flatMap(([file, text]) =>
      text
        .split('\n')
        .map((line, i) => ({ where: `${file.slice(3)}:${i + 1}`, line: line.trim() }))
        .filter(({ line }) => /\bapi\s*[<(]/.test(line)),
    );
    expect(direct).toEqual([]);
  });
});
