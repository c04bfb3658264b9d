import type { Availability } from './editState.ts';

/** Suggestions offered by the chip inputs of the profile editor; people may type their own. */
export const SUGGESTIONS = {
  relationshipGoals: [
    'Long-term relationship',
    'Something casual',
    'Friendship first',
    'Marriage',
    'Open relationship',
    'Figuring it out',
  ],
  datingLookingFor: ['Dates', 'A boyfriend', 'Friends', 'Chat', 'Networking'],
  interests: ['Hiking', 'Cooking', 'Music', 'Travel', 'Fitness', 'Gaming', 'Film', 'Art', 'Reading', 'Coffee', 'Dogs', 'Theatre'],
  values: ['Honesty', 'Kindness', 'Humour', 'Ambition', 'Family', 'Loyalty', 'Curiosity'],
  dealBreakers: ['Smoking', 'Dishonesty', 'Rudeness', 'Drugs', 'No sense of humour'],
  lifestyle: ['Early riser', 'Night owl', 'Gym regular', 'Foodie', 'Homebody', 'Social butterfly', 'Non-smoker', 'Sober'],
  nowLookingFor: ['Chat', 'Hookup', 'Right now', 'Dates', 'Friends', 'Drinks'],
  tribes: ['Bear', 'Clean-cut', 'Daddy', 'Discreet', 'Geek', 'Jock', 'Leather', 'Otter', 'Rugged', 'Trans', 'Twink'],
  kinks: ['Bondage', 'Gear', 'Leather', 'Roleplay', 'Toys', 'Vanilla'],
} as const;

export const BUILDS = ['Slim', 'Average', 'Athletic', 'Muscular', 'Stocky', 'Large'] as const;
export const GENDERS = ['Man', 'Trans man', 'Non-binary', 'Prefer not to say'] as const;
export const AVAILABILITIES: { value: Availability; label: string }[] = [
  { value: 'offline', label: 'Offline' },
  { value: 'available', label: 'Available' },
  { value: 'busy', label: 'Busy' },
  { value: 'hosting', label: 'Can host' },
  { value: 'traveling', label: 'Traveling' },
];
