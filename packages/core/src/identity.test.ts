import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANON_ID_PATTERN, ANON_PREFIX, anonymousLabel, generateAnonymousId, isAnonymousId, normalizeEmail } from './identity.ts';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const anonChar = fc.constantFrom(...ALPHABET.split(''));
const validId = fc.string({ unit: anonChar, minLength: 12, maxLength: 12 }).map((s) => ANON_PREFIX + s);

/** A byte source that hands out the given chunks in turn, then `rest` forever. */
function scripted(chunks: number[][], rest: (n: number) => Uint8Array): (n: number) => Uint8Array {
  let i = 0;
  return (n) => {
    const chunk = chunks[i++];
    return chunk ? Uint8Array.from(chunk) : rest(n);
  };
}

const cryptoBytes = (n: number) => crypto.getRandomValues(new Uint8Array(n));

describe('isAnonymousId', () => {
  it('accepts anon_ followed by exactly 12 lowercase letters or digits', () => {
    expect(isAnonymousId('anon_abcdefgh1x2y')).toBe(true);
    expect(isAnonymousId('anon_000000000000')).toBe(true);
    expect(isAnonymousId('anon_zzzzzzzzzzzz')).toBe(true);
    fc.assert(fc.property(validId, (id) => isAnonymousId(id)));
  });

  it('rejects uppercase characters anywhere', () => {
    expect(isAnonymousId('anon_ABCDEFGH1X2Y')).toBe(false);
    expect(isAnonymousId('anon_abcdefgh1x2Y')).toBe(false);
    expect(isAnonymousId('ANON_abcdefgh1x2y')).toBe(false);
    expect(isAnonymousId('Anon_abcdefgh1x2y')).toBe(false);
  });

  it('rejects the wrong length', () => {
    expect(isAnonymousId('anon_')).toBe(false);
    expect(isAnonymousId('anon_abcdefgh1x2')).toBe(false);
    expect(isAnonymousId('anon_abcdefgh1x2yz')).toBe(false);
    fc.assert(
      fc.property(
        fc.string({ unit: anonChar, maxLength: 30 }).filter((s) => s.length !== 12),
        (s) => !isAnonymousId(ANON_PREFIX + s),
      ),
    );
  });

  it('rejects other prefixes and surrounding text', () => {
    for (const v of [
      'anon-abcdefgh1x2y',
      'anonabcdefgh1x2y',
      'user_abcdefgh1x2y',
      '_anon_abcdefgh1x2y',
      ' anon_abcdefgh1x2y',
      'anon_abcdefgh1x2y ',
      'anon_abcdefgh1x2y\n',
      'xanon_abcdefgh1x2y',
      'abcdefgh1x2y',
    ]) {
      expect(isAnonymousId(v), v).toBe(false);
    }
  });

  it('rejects punctuation, underscores and non-ASCII in the body', () => {
    for (const v of ['anon_abcdefgh1x2_', 'anon_abcdefgh1x2-', 'anon_abcdefgh1x2é', 'anon_abcdef h1x2y', 'anon_abcdefgh1x2.']) {
      expect(isAnonymousId(v), v).toBe(false);
    }
  });

  it('rejects non-strings', () => {
    for (const v of [
      null,
      undefined,
      0,
      123456789012,
      true,
      {},
      [],
      ['anon_abcdefgh1x2y'],
      { toString: () => 'anon_abcdefgh1x2y' },
    ]) {
      expect(isAnonymousId(v)).toBe(false);
    }
  });

  it('agrees with ANON_ID_PATTERN on arbitrary strings', () => {
    fc.assert(fc.property(fc.string(), (s) => isAnonymousId(s) === /^anon_[a-z0-9]{12}$/.test(s)));
    fc.assert(fc.property(fc.string(), (s) => isAnonymousId(ANON_PREFIX + s) === ANON_ID_PATTERN.test(ANON_PREFIX + s)));
  });
});

describe('generateAnonymousId', () => {
  it('matches the format with a cryptographic source', () => {
    for (let i = 0; i < 200; i++) expect(isAnonymousId(generateAnonymousId(cryptoBytes))).toBe(true);
  });

  it('always matches the format for any byte source that eventually yields usable bytes', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ minLength: 1, maxLength: 32 }), { maxLength: 10 }), fc.integer(), (chunks, seed) => {
        let s = seed;
        // After the scripted chunks, a cheap deterministic generator (always yields some byte < 252).
        const rest = (n: number) =>
          Uint8Array.from({ length: n }, () => {
            s = (Math.imul(s, 1103515245) + 12345) | 0;
            return (s >>> 16) & 0xff;
          });
        const id = generateAnonymousId(
          scripted(
            chunks.map((c) => Array.from(c)),
            rest,
          ),
        );
        expect(id).toMatch(ANON_ID_PATTERN);
      }),
    );
  });

  it('skips rejected bytes from a biased source (always 255, then valid bytes)', () => {
    const all255 = Array(16).fill(255);
    const id = generateAnonymousId(scripted([all255, all255, all255], (n) => new Uint8Array(n).fill(1)));
    expect(id).toBe('anon_bbbbbbbbbbbb');
  });

  it('rejects each of 252..255 and keeps reading until it has 12 characters', () => {
    // Only one usable byte per call: the generator must call again rather than pad or stop.
    const id = generateAnonymousId(() => Uint8Array.from([252, 253, 254, 255, 0, 255]));
    expect(id).toBe('anon_aaaaaaaaaaaa');
  });

  it('is a property over biased sources: any prefix of all-255 chunks then random bytes', () => {
    fc.assert(
      fc.property(fc.nat({ max: 20 }), fc.uint8Array({ minLength: 16, maxLength: 16 }), (junk, tail) => {
        const chunks = Array.from({ length: junk }, () => Array(16).fill(255));
        const id = generateAnonymousId(scripted(chunks, () => Uint8Array.from(tail.map((b) => b % 252))));
        expect(id).toMatch(ANON_ID_PATTERN);
      }),
    );
  });

  it('maps the 252 accepted byte values evenly onto all 36 characters (no modulo bias)', () => {
    const counts = new Map<string, number>();
    for (let b = 0; b < 252; b++) {
      const id = generateAnonymousId((n) => new Uint8Array(n).fill(b));
      const body = id.slice(ANON_PREFIX.length);
      expect(new Set(body).size).toBe(1);
      counts.set(body[0]!, (counts.get(body[0]!) ?? 0) + 1);
    }
    expect([...counts.keys()].sort().join('')).toBe([...ALPHABET].sort().join(''));
    for (const c of counts.values()) expect(c).toBe(7);
  });

  it('uses all 36 characters with a random source, roughly evenly', () => {
    const counts = new Map<string, number>();
    const ids = 3000;
    for (let i = 0; i < ids; i++) {
      for (const c of generateAnonymousId(cryptoBytes).slice(ANON_PREFIX.length)) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect(counts.size).toBe(36);
    const expected = (ids * 12) / 36; // 1000
    // ~6.5 standard deviations either way: never flaky, still catches a gross bias.
    for (const c of counts.values()) {
      expect(c).toBeGreaterThan(expected * 0.8);
      expect(c).toBeLessThan(expected * 1.2);
    }
  });

  it('rarely collides with a random source', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) seen.add(generateAnonymousId(cryptoBytes));
    expect(seen.size).toBe(5000);
  });
});

describe('anonymousLabel', () => {
  it("is 'User' plus the last 4 characters in capitals", () => {
    expect(anonymousLabel('anon_abcdefgh1x2y')).toBe('User 1X2Y');
    expect(anonymousLabel('anon_000000000000')).toBe('User 0000');
    fc.assert(fc.property(validId, (id) => anonymousLabel(id) === `User ${id.slice(-4).toUpperCase()}`));
  });

  it("is 'Unknown User' for anything that is not an anonymous id", () => {
    for (const v of [null, undefined, '', 'anon_ABCDEFGH1X2Y', 'anon_short', 'user_abcdefgh1x2y', 42, {}]) {
      expect(anonymousLabel(v)).toBe('Unknown User');
    }
    fc.assert(
      fc.property(
        fc.string().filter((s) => !ANON_ID_PATTERN.test(s)),
        (s) => anonymousLabel(s) === 'Unknown User',
      ),
    );
  });
});

describe('normalizeEmail', () => {
  it('trims and lowercases', () => {
    expect(normalizeEmail('  Foo.Bar@Example.COM \n')).toBe('foo.bar@example.com');
    expect(normalizeEmail('a@b.c')).toBe('a@b.c');
  });

  it('is idempotent', () => {
    fc.assert(fc.property(fc.string(), (s) => normalizeEmail(normalizeEmail(s)) === normalizeEmail(s)));
  });

  it('makes case and surrounding-space variants of an address equal', () => {
    fc.assert(
      fc.property(fc.emailAddress(), fc.string({ unit: fc.constantFrom(' ', '\t'), maxLength: 3 }), (email, pad) => {
        expect(normalizeEmail(pad + email.toUpperCase() + pad)).toBe(normalizeEmail(email));
      }),
    );
  });
});
