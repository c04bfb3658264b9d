import {
  AUTH_STORAGE_KEYS,
  DEFAULT_APP_PREFERENCES,
  DEFAULT_DATING_PROFILE,
  DEFAULT_MODE_SETTINGS,
  DEFAULT_MODE_VISIBILITY,
  DEFAULT_NOW_PROFILE,
  DEFAULT_PREFERENCES,
  DEFAULT_STATS,
  type Match,
  type Me,
  type PublicProfile,
} from '@fmk/core';
import type { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { App, makeQueryClient } from '../app/App.tsx';
import { EXPIRES_AT_KEY } from '../features/auth/session.ts';

/** Test data and a stubbed network: the only thing replaced in web tests is fetch. */
export function me(over: Partial<Me> = {}): Me {
  return {
    uid: 'u1',
    anonymousId: 'anon_abcdefghijkl',
    email: 'sam@example.com',
    emailVerified: true,
    verified: false,
    pendingEmail: null,
    displayName: 'Sam',
    photoURL: null,
    subscriptionTier: 'free',
    isActive: true,
    onboardingComplete: true,
    isBetaUser: false,
    hasLifetimePremium: false,
    betaJoinedAt: null,
    age: 30,
    gender: null,
    bio: 'Hi',
    photos: [],
    interests: [],
    intentions: [],
    selectedFeatures: [],
    currentMode: 'dating',
    appPreferences: DEFAULT_APP_PREFERENCES,
    modeSettings: DEFAULT_MODE_SETTINGS,
    height: null,
    position: 'Vers',
    tribes: [],
    preferences: DEFAULT_PREFERENCES,
    stats: DEFAULT_STATS,
    datingProfile: DEFAULT_DATING_PROFILE,
    nowProfile: DEFAULT_NOW_PROFILE,
    modeVisibility: DEFAULT_MODE_VISIBILITY,
    createdAt: '2030-01-01T00:00:00.000Z',
    updatedAt: '2030-01-01T00:00:00.000Z',
    ...over,
  };
}

export function publicProfile(over: Partial<PublicProfile> = {}): PublicProfile {
  return {
    uid: 'u2',
    isMe: false,
    isDemo: false,
    verified: false,
    displayName: 'Alex',
    age: 31,
    bio: 'Bread baker, trail runner.',
    photos: [],
    currentMode: 'dating',
    distance: '3 km',
    isOnline: true,
    lastSeen: null,
    dating: {
      prompts: [{ promptId: 'p1', question: 'I geek out on...', answer: 'Sourdough', likeCount: 2, likedByMe: false }],
      relationshipGoals: ['Long-term'],
      lookingFor: ['Dates'],
      interests: ['Hiking', 'Baking'],
      values: ['Honesty'],
      dealBreakers: ['Smoking'],
      lifestyle: ['Early riser'],
    },
    now: {
      quickStats: { build: 'Athletic', height: 180 },
      position: 'Vers',
      lookingFor: ['Drinks'],
      availability: 'available',
      rightNow: 'Coffee downtown',
      aboutMe: 'Easygoing.',
      tribes: ['Jock'],
      kinks: [],
      safetyInfo: 'Tested monthly',
    },
    ...over,
  };
}

export function match(over: Partial<Match> = {}): Match {
  return {
    id: 'm1',
    users: ['u1', 'u2'],
    matchType: 'mixed',
    userActions: { u1: 'fuck', u2: 'marry' },
    matchedAt: '2030-01-01T00:00:00.000Z',
    createdAt: '2030-01-01T00:00:00.000Z',
    conversationId: 'c1',
    other: { uid: 'u2', displayName: 'Alex', photoURL: null, verified: false },
    ...over,
  };
}
type Handler = (init: RequestInit | undefined) => Response | Promise<Response>;
export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export interface Call {
  key: string;
  body: unknown;
}

/** Stubs fetch with routes keyed 'METHOD /path'; returns the calls made (key and JSON body). */
export function serve(routes: Record<string, Handler>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${String(input)}`;
      const raw = init?.body;
      calls.push({ key, body: typeof raw === 'string' ? JSON.parse(raw) : raw });
      const h = routes[key];
      return h ? h(init) : json(404, { error: 'not_found', message: 'Not found' });
    }),
  );
  return calls;
}

export const session = (user: Me) => () => json(200, { user, expiresAt: new Date(Date.now() + 3600_000).toISOString() });

export function signInStored(user: Me) {
  localStorage.setItem(AUTH_STORAGE_KEYS.token, 'tok');
  localStorage.setItem(AUTH_STORAGE_KEYS.user, JSON.stringify(user));
  localStorage.setItem(EXPIRES_AT_KEY, new Date(Date.now() + 3600_000).toISOString());
}

export function start(path: string, queryClient: QueryClient = makeQueryClient()) {
  window.history.replaceState(null, '', path);
  return { ...render(<App queryClient={queryClient} />), queryClient };
}

export const config = { googleEnabled: false, vapidPublicKey: null, beta: { eligible: true } };
