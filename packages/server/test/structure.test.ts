import { describe, expect, it } from 'vitest';
import { measure } from '../../../scripts/structure.ts';

/**
 * The code's shape held to its ceilings (scripts/structure.ts measures it): a new import cycle, a
 * new reach into another feature's repo or a new query outside a repo fails here. A ceiling only
 * ever goes down; the goal of each is in docs/architecture.md.
 */
const CEILINGS = {
  serverFeatureCycles: 0,
  webFeatureCycles: 0,
  serverCycles: 0,
  serverTypeCycles: 0,
  webCycles: 0,
  webTypeCycles: 0,
  crossFeatureRepoImports: 0,
  crossFeatureImportsPastService: 0,
  queriesOutsideRepos: 0,
  // Two places, counted since the .sql files are scanned too (not a new one): notBlocked in
  // platform/blocks/repo.ts, and the message send, a PostgreSQL function (one round trip) whose
  // block check is SQL of its own, held to core's can('message.send') case by case by
  // modules/messaging/send-message.test.ts.
  blockRulePlaces: 2,
  webFeatureImportsOfApp: 0,
  webLongFiles: 0,
  serverCoreLongFiles: 0,
} as const;

describe('the shape of the code', () => {
  const m = measure();
  for (const [name, ceiling] of Object.entries(CEILINGS)) {
    it(`${name} stays at or below ${ceiling}`, () => {
      const found = m[name as keyof typeof CEILINGS];
      expect(found.length, JSON.stringify(found, null, 2)).toBeLessThanOrEqual(ceiling);
    });
  }
});
