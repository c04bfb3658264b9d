import { preferencesSchema, SHOW_ME } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('zod in the web build (build/zod-inert.ts)', () => {
  it("is the inert stand-in: core's schemas build without zod, and parsing with them fails loudly", () => {
    // core's module-level schemas were built at import, through chains like these.
    expect(() =>
      z
        .object({ a: z.string().min(1).max(2).nullable() })
        .extend({})
        .refine(() => true),
    ).not.toThrow();
    expect(() => preferencesSchema.parse({})).toThrow(/not available in the web build/);
    expect(() => z.string().safeParse('x')).toThrow(/not available in the web build/);
    // Plain values core exports next to its schemas are untouched.
    expect(SHOW_ME).toEqual(['everyone', 'men', 'trans', 'nonbinary']);
  });
});
