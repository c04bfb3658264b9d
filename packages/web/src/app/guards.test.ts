import { describe, expect, it } from 'vitest';
import { type AuthView, COMPLETE_PROFILE_ROUTES, guardRedirect, LINK_ROUTES, matchesPattern } from './guards.ts';

const signedOut: AuthView = { status: 'signedOut' };
const incomplete: AuthView = { status: 'signedIn', onboardingComplete: false };
const complete: AuthView = { status: 'signedIn', onboardingComplete: true };

const concrete = (pattern: string) => pattern.replace(':userId', 'u_123').replace(':conversationId', 'c_456');

describe('signed out (spec 2)', () => {
  it('renders the landing page and the auth screen', () => {
    expect(guardRedirect(signedOut, '/')).toBeNull();
    expect(guardRedirect(signedOut, '/auth')).toBeNull();
    expect(guardRedirect(signedOut, '/auth?result=abc')).toBeNull();
  });

  it.each(['/grid', '/onboarding', '/settings', '/messages/chat/u1', '/nope', '/auth/extra'])('sends %s to /', (path) => {
    expect(guardRedirect(signedOut, path)).toBe('/');
  });
});

describe('signed in, profile incomplete', () => {
  it('renders only /onboarding', () => {
    expect(guardRedirect(incomplete, '/onboarding')).toBeNull();
  });

  it.each(['/', '/auth', '/grid', '/settings', '/profile/edit', '/whatever'])('sends %s to /onboarding', (path) => {
    expect(guardRedirect(incomplete, path)).toBe('/onboarding');
  });
});

describe('signed in, profile complete', () => {
  it('redirects / to /grid', () => {
    expect(guardRedirect(complete, '/')).toBe('/grid');
  });

  it.each(COMPLETE_PROFILE_ROUTES.map(concrete))('renders %s', (path) => {
    expect(guardRedirect(complete, path)).toBeNull();
  });

  it.each(['/auth', '/onboarding', '/unknown', '/grid/extra', '/profile', '/settings/unknown'])('sends %s to /grid', (path) => {
    expect(guardRedirect(complete, path)).toBe('/grid');
  });

  it('ignores a trailing slash and a query', () => {
    expect(guardRedirect(complete, '/settings/')).toBeNull();
    expect(guardRedirect(complete, '/grid?x=1')).toBeNull();
  });
});

describe('admin', () => {
  it.each(['/admin', '/admin/login', '/admin/dashboard', '/admin/users', '/admin/system/audit'])(
    'leaves %s to the staff area, which guards itself with its own session, in every member state',
    (path) => {
      for (const auth of [signedOut, incomplete, complete]) expect(guardRedirect(auth, path)).toBeNull();
    },
  );
});

describe('debug crash route', () => {
  it('is reachable in every state', () => {
    for (const auth of [signedOut, incomplete, complete]) expect(guardRedirect(auth, '/debug/crash')).toBeNull();
  });
});

describe('matchesPattern', () => {
  it('matches parameters to exactly one non-empty segment', () => {
    expect(matchesPattern('/profile/:userId', '/profile/abc')).toBe(true);
    expect(matchesPattern('/profile/:userId', '/profile/')).toBe(false);
    expect(matchesPattern('/profile/:userId', '/profile/a/b')).toBe(false);
    expect(matchesPattern('/messages/chat/:userId', '/messages/chat/x')).toBe(true);
  });
});

describe('the pages a mailed link opens', () => {
  it.each(LINK_ROUTES)('render %s signed out, mid-onboarding and signed in', (path) => {
    for (const view of [signedOut, incomplete, complete]) expect(guardRedirect(view, path)).toBeNull();
  });
});
