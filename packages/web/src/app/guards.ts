/**
 * Route guards of spec section 2 as one pure decision: given who is looking and where, the path
 * to redirect to, or null to render. The router only applies it.
 */
export type AuthView = { status: 'signedOut' } | { status: 'signedIn'; onboardingComplete: boolean };

/** Reachable in every state: the error screen's deliberate crash. */
export const DEBUG_CRASH_PATH = '/debug/crash';

export const COMPLETE_PROFILE_ROUTES = [
  '/grid',
  '/profile/edit',
  '/profile/edit/prompts',
  '/profile/:userId',
  '/likes',
  '/messages',
  '/messages/chat/:userId',
  '/messages/:conversationId',
  '/cruise',
  '/track',
  '/health',
  '/activity',
  '/activity/log',
  '/settings',
  '/settings/notifications',
  '/settings/privacy',
  '/settings/safety',
  '/settings/blocked-users',
  '/settings/premium',
  '/settings/payment',
  '/settings/bugs-feedback',
  '/settings/help',
  '/safety',
] as const;

/**
 * The pages a mailed link opens, in every state: the link is the credential, and a person may
 * open it signed out, mid-onboarding or on another phone.
 */
export const LINK_ROUTES = ['/verify', '/reset-password'] as const;

function normalise(path: string): string {
  const p = path.split(/[?#]/)[0] || '/';
  return p.length > 1 ? p.replace(/\/+$/, '') || '/' : p;
}

/** Matches '/a/:b' patterns segment by segment; a parameter matches one non-empty segment. */
export function matchesPattern(pattern: string, path: string): boolean {
  const ps = pattern.split('/');
  const xs = normalise(path).split('/');
  if (ps.length !== xs.length) return false;
  return ps.every((seg, i) => (seg.startsWith(':') ? (xs[i] ?? '') !== '' : seg === xs[i]));
}

const isAdminPath = (p: string) => p === '/admin' || p.startsWith('/admin/');

export function guardRedirect(auth: AuthView, rawPath: string): string | null {
  const path = normalise(rawPath);
  if (path === DEBUG_CRASH_PATH) return null;
  if ((LINK_ROUTES as readonly string[]).includes(path)) return null;

  // The staff area guards itself with its own session (features/admin/AdminArea.tsx).
  if (isAdminPath(path)) return null;

  if (auth.status === 'signedOut') return path === '/' || path === '/auth' ? null : '/';
  if (!auth.onboardingComplete) return path === '/onboarding' ? null : '/onboarding';
  if (COMPLETE_PROFILE_ROUTES.some((r) => matchesPattern(r, path))) return null;
  return '/grid';
}
