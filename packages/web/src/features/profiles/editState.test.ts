import { describe, expect, it } from 'vitest';
import { me } from '../../test/fixtures.tsx';
import { draftFrom, draftPatch, heightInCm, replacePrompt, togglePrompt, withUnits } from './editState.ts';

describe('profile edit state', () => {
  it('sends nothing when nothing changed', () => {
    const user = me();
    expect(draftPatch(draftFrom(user), user)).toEqual({});
  });

  it('converts between feet/inches and centimetres without drifting', () => {
    const d = { ...draftFrom(me()), units: 'imperial' as const, heightFeet: '6', heightInches: '0' };
    expect(heightInCm(d)).toBe(183);
    const metric = withUnits(d, 'metric');
    expect(metric.heightCm).toBe('183');
    expect(withUnits(metric, 'imperial')).toMatchObject({ heightFeet: '6', heightInches: '0' });
  });

  it('chooses at most three prompts and replaces one in place', () => {
    let ps = togglePrompt([], { id: 'a', text: 'A' });
    ps = togglePrompt(ps, { id: 'b', text: 'B' });
    ps = togglePrompt(ps, { id: 'c', text: 'C' });
    expect(togglePrompt(ps, { id: 'd', text: 'D' }).map((p) => p.promptId)).toEqual(['a', 'b', 'c']);
    expect(togglePrompt(ps, { id: 'b', text: 'B' }).map((p) => p.promptId)).toEqual(['a', 'c']);
    expect(replacePrompt(ps, 'b', { id: 'd', text: 'D' }).map((p) => p.promptId)).toEqual(['a', 'd', 'c']);
  });

  it('sends empty optional texts as null and tribes in both places', () => {
    const user = me();
    const d = draftFrom(user);
    const patch = draftPatch({ ...d, gender: '', now: { ...d.now, rightNow: '  ', tribes: ['Otter'] } }, user);
    expect(patch).toEqual({ tribes: ['Otter'], nowProfile: { tribes: ['Otter'] } });
  });
});
