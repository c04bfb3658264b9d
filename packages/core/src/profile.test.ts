import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CompletenessInput,
  DEFAULT_NOW_PROFILE,
  DEFAULT_PREFERENCES,
  feetInchesToCm,
  formatHeight,
  isProfileComplete,
  MIN_DATING_PROMPTS,
  type MissingField,
  missingProfileFields,
  nowProfileSchema,
  promptAnswerSchema,
} from './profile.ts';

const answer = (a: string) => ({ answer: a });

function complete(): CompletenessInput {
  return {
    displayName: 'Sam',
    age: 30,
    bio: 'Hello there',
    photos: [{ id: 'p1' }],
    nowProfile: { quickStats: { height: 180 }, position: 'Vers' },
    datingProfile: { prompts: [answer('Hiking'), answer('Coffee')] },
  };
}

describe('profile defaults', () => {
  it('match spec section 3', () => {
    expect(DEFAULT_PREFERENCES).toEqual({ ageRange: [18, 50], maxDistance: 50, showMe: 'everyone', units: 'imperial' });
    expect(DEFAULT_NOW_PROFILE.position).toBe('Vers');
    expect(DEFAULT_NOW_PROFILE.availability).toBe('offline');
    expect(MIN_DATING_PROMPTS).toBe(2);
  });
});

describe('missingProfileFields / isProfileComplete', () => {
  it('is empty for a complete profile', () => {
    expect(missingProfileFields(complete())).toEqual([]);
    expect(isProfileComplete(complete())).toBe(true);
  });

  const cases: [MissingField, string, (p: CompletenessInput) => void][] = [
    [
      'displayName',
      'displayName = null',
      (p) => {
        p.displayName = null;
      },
    ],
    [
      'displayName',
      'displayName = ""',
      (p) => {
        p.displayName = '';
      },
    ],
    [
      'displayName',
      'displayName = "   "',
      (p) => {
        p.displayName = '   ';
      },
    ],
    [
      'age',
      'age = null',
      (p) => {
        p.age = null;
      },
    ],
    [
      'age',
      'age = 17',
      (p) => {
        p.age = 17;
      },
    ],
    [
      'age',
      'age = 0',
      (p) => {
        p.age = 0;
      },
    ],
    [
      'bio',
      'bio = null',
      (p) => {
        p.bio = null;
      },
    ],
    [
      'bio',
      'bio = ""',
      (p) => {
        p.bio = '';
      },
    ],
    [
      'bio',
      'bio = " \n\t "',
      (p) => {
        p.bio = ' \n\t ';
      },
    ],
    [
      'photo',
      'photos = []',
      (p) => {
        p.photos = [];
      },
    ],
    [
      'height',
      'nowProfile.quickStats.height = null',
      (p) => {
        p.nowProfile.quickStats.height = null;
      },
    ],
    [
      'position',
      'nowProfile.position = null',
      (p) => {
        p.nowProfile.position = null;
      },
    ],
    [
      'position',
      'nowProfile.position = ""',
      (p) => {
        p.nowProfile.position = '';
      },
    ],
    [
      'prompts',
      'datingProfile.prompts = []',
      (p) => {
        p.datingProfile.prompts = [];
      },
    ],
    [
      'prompts',
      'datingProfile.prompts = [answer("only one")]',
      (p) => {
        p.datingProfile.prompts = [answer('only one')];
      },
    ],
    [
      'prompts',
      'datingProfile.prompts = [answer("one"), answer("")]',
      (p) => {
        p.datingProfile.prompts = [answer('one'), answer('')];
      },
    ],
    [
      'prompts',
      'datingProfile.prompts = [answer("one"), answer("   "), answer("\n")]',
      (p) => {
        p.datingProfile.prompts = [answer('one'), answer('   '), answer('\n')];
      },
    ],
  ];
  for (const [field, label, spoil] of cases) {
    it(`reports only ${field} when it alone is missing (${label})`, () => {
      const p = complete();
      spoil(p);
      expect(missingProfileFields(p)).toEqual([field]);
      expect(isProfileComplete(p)).toBe(false);
    });
  }

  it('accepts exactly 18 and two non-blank prompts among blank ones', () => {
    const p = complete();
    p.age = 18;
    p.datingProfile.prompts = [answer(' '), answer('a'), answer(''), answer(' b ')];
    expect(isProfileComplete(p)).toBe(true);
  });

  it('reports every field, in a fixed order, for an empty profile', () => {
    const empty: CompletenessInput = {
      displayName: null,
      age: null,
      bio: null,
      photos: [],
      nowProfile: { quickStats: { height: null }, position: null },
      datingProfile: { prompts: [] },
    };
    expect(missingProfileFields(empty)).toEqual(['displayName', 'age', 'bio', 'photo', 'height', 'position', 'prompts']);
  });

  it('needs at least two prompts with non-blank answers (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom('', ' ', '\t\n'), fc.string({ minLength: 1 }))), (answers) => {
        const p = complete();
        p.datingProfile.prompts = answers.map(answer);
        const filled = answers.filter((a) => a.trim() !== '').length;
        expect(missingProfileFields(p).includes('prompts')).toBe(filled < 2);
      }),
    );
  });

  it('complete iff nothing is missing (property over ages)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 120 }), (age) => {
        const p = complete();
        p.age = age;
        expect(isProfileComplete(p)).toBe(age >= 18);
      }),
    );
  });
});

describe('formatHeight / feetInchesToCm', () => {
  it('shows metric heights in centimetres', () => {
    expect(formatHeight(180, 'metric')).toBe('180 cm');
  });

  it('shows imperial heights in feet and inches', () => {
    expect(formatHeight(180, 'imperial')).toBe(`5'11"`);
    expect(formatHeight(183, 'imperial')).toBe(`6'0"`);
    expect(formatHeight(152, 'imperial')).toBe(`5'0"`);
    expect(formatHeight(120, 'imperial')).toBe(`3'11"`);
    expect(formatHeight(250, 'imperial')).toBe(`8'2"`);
  });

  it('converts feet and inches to whole centimetres', () => {
    expect(feetInchesToCm(6, 0)).toBe(183);
    expect(feetInchesToCm(5, 11)).toBe(180);
    expect(feetInchesToCm(5, 0)).toBe(152);
  });

  it('round-trips feet and inches through centimetres (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 8 }), fc.integer({ min: 0, max: 11 }), (feet, inches) => {
        expect(formatHeight(feetInchesToCm(feet, inches), 'imperial')).toBe(`${feet}'${inches}"`);
      }),
    );
  });

  it('round-trips centimetres through the imperial display to within rounding (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 120, max: 250 }), (cm) => {
        const m = /^(\d+)'(\d+)"$/.exec(formatHeight(cm, 'imperial'));
        expect(m).not.toBeNull();
        const [feet, inches] = [Number(m![1]), Number(m![2])];
        expect(inches).toBeLessThan(12);
        // Half an inch (1.27 cm) of display rounding plus half a centimetre of storage rounding.
        expect(Math.abs(feetInchesToCm(feet, inches) - cm)).toBeLessThanOrEqual(1.77);
      }),
    );
  });

  it('is monotonic: taller never displays shorter (property)', () => {
    const inches = (cm: number) => {
      const [, f, i] = /^(\d+)'(\d+)"$/.exec(formatHeight(cm, 'imperial'))!;
      return Number(f) * 12 + Number(i);
    };
    fc.assert(fc.property(fc.integer({ min: 120, max: 249 }), (cm) => inches(cm + 1) >= inches(cm)));
  });
});

describe('profile schemas', () => {
  it('trims prompt answers and rejects blank ones', () => {
    expect(promptAnswerSchema.parse({ promptId: 'p', question: 'Q?', answer: '  yes  ' }).answer).toBe('yes');
    const r = promptAnswerSchema.safeParse({ promptId: 'p', question: 'Q?', answer: '   ' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('Write an answer to the prompt.');
  });

  it('bounds now-profile height to 120-250 cm', () => {
    const withHeight = (height: number | null) => ({ ...DEFAULT_NOW_PROFILE, quickStats: { build: null, height } });
    expect(nowProfileSchema.safeParse(withHeight(120)).success).toBe(true);
    expect(nowProfileSchema.safeParse(withHeight(250)).success).toBe(true);
    expect(nowProfileSchema.safeParse(withHeight(null)).success).toBe(true);
    expect(nowProfileSchema.safeParse(withHeight(119)).success).toBe(false);
    expect(nowProfileSchema.safeParse(withHeight(251)).success).toBe(false);
    expect(nowProfileSchema.safeParse(withHeight(180.5)).success).toBe(false);
  });

  it('accepts its own defaults', () => {
    expect(nowProfileSchema.safeParse(DEFAULT_NOW_PROFILE).success).toBe(true);
  });
});
