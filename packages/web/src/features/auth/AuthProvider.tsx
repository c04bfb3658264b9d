import { AUTH_INIT_TIMEOUT_MS, type AuthResult, type Me, Messages, TOKEN_CHECK_INTERVAL_MS, tokenCheck } from '@fmk/core';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../../api/call.ts';
import { ApiError, setUnauthorizedListener } from '../../api/client.ts';
import { SESSION_CHANGED } from '../../shared/sessionEvents.ts';
import { withPendingMe } from '../../shared/settingsLocal.ts';
import { storeAppPreferences } from '../../shared/usePreferences.ts';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { clearSession, readSession, type StoredSession, shouldRefresh, writeExpiry, writeSession, writeUser } from './session.ts';

export type AuthState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'signedOut' }
  | { status: 'signedIn'; user: Me };

interface AuthApi {
  state: AuthState;
  user: Me | null;
  /** Keeps a fresh sign-in (password, Google redirect, refresh). */
  applyResult(result: AuthResult): void;
  /** Keeps a changed user record (profile edits, onboarding). */
  updateUser(user: Me): void;
  signIn(email: string, password: string): Promise<void>;
  signUp(email: string, password: string): Promise<void>;
  signOut(): Promise<void>;
  retryInit(): void;
}

const AuthContext = createContext<AuthApi | null>(null);

export function useAuth(): AuthApi {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used within an AuthProvider');
  return ctx;
}

/** Signed in from storage alone: only while the stored token is still good (spec section 4). */
function fromStorage(s: StoredSession): AuthState | null {
  if (s.token && s.user && tokenCheck(s.expiresAt, new Date()) === 'ok') return { status: 'signedIn', user: s.user };
  return null;
}

/**
 * `onSignedOut` runs whenever the session ends here (sign-out, revoked, expired): App deletes
 * the offline copy with it (features/offline; spec section 4, stored data is cleared).
 * `beforeSignOut` runs on a sign-out while the token still works: App unsubscribes this
 * browser from the account's pushes with it (features/notifications, which builds on auth).
 */
export function AuthProvider({
  children,
  onSignedOut,
  beforeSignOut,
}: {
  children: ReactNode;
  onSignedOut?: () => void;
  beforeSignOut?: () => Promise<void>;
}) {
  const [state, setState] = useState<AuthState>({ status: 'loading' });
  const [initRun, setInitRun] = useState(0);
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const statusRef = useRef(state.status);
  statusRef.current = state.status;

  const localSignOut = useCallback(() => {
    clearSession();
    queryClient.clear();
    onSignedOut?.();
    setState({ status: 'signedOut' });
  }, [queryClient, onSignedOut]);

  const expire = useCallback(() => {
    if (statusRef.current !== 'signedIn') return;
    localSignOut();
    toast.info(Messages.sessionExpired);
    navigate('/', { replace: true });
  }, [localSignOut, navigate, toast]);

  // Start: a stored session that has not expired signs in at once, from storage, as a persisted
  // sign-in restores before any network call; the server's check runs behind it and signs out a
  // revoked one (so the first screen does not wait a round trip for it). Otherwise the
  // check decides, with the loading screen shown for at most 3 s.
  // biome-ignore lint/correctness/useExhaustiveDependencies: initRun re-runs the check on "Try Again"
  useEffect(() => {
    let cancelled = false;
    const stored = readSession();
    if (!stored.token) {
      setState({ status: 'signedOut' });
      return;
    }
    const restored = fromStorage(stored);
    let settled = restored !== null;
    setState(restored ?? { status: 'loading' });
    // Nothing usable stored: the check decides, and a server that says nothing in 3 s signs out.
    const timer = restored
      ? undefined
      : setTimeout(() => {
          if (cancelled || settled) return;
          settled = true;
          setState({ status: 'signedOut' });
        }, AUTH_INIT_TIMEOUT_MS);

    call('GET /auth/session', { token: stored.token })
      .then((s) => {
        if (cancelled) return;
        settled = true;
        // On load the user record's preferences win over the local copy (spec section 3), save
        // a change of the settings hub still waiting on this device to sync (spec section 8).
        const user = withPendingMe(s.user);
        writeUser(user);
        writeExpiry(s.expiresAt);
        storeAppPreferences(user.appPreferences);
        setState({ status: 'signedIn', user });
      })
      .catch((e: unknown) => {
        if (cancelled) return;
        if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
          settled = true;
          localSignOut();
          return;
        }
        // Offline or a server error: a session restored from storage stays usable.
        if (settled) return;
        settled = true;
        if (tokenCheck(stored.expiresAt, new Date()) !== 'ok') {
          clearSession();
          setState({ status: 'signedOut' });
        } else setState({ status: 'error', message: Messages.initFailed });
      })
      .finally(() => clearTimeout(timer));
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [initRun]);

  // His record changed (a tier change on the live channel, a refused hub change): read it again.
  useEffect(() => {
    const reread = () => {
      if (statusRef.current !== 'signedIn') return;
      call('GET /auth/session')
        .then((s) => {
          const user = withPendingMe(s.user);
          writeUser(user);
          storeAppPreferences(user.appPreferences);
          setState({ status: 'signedIn', user });
        })
        .catch(() => {});
    };
    window.addEventListener(SESSION_CHANGED, reread);
    return () => window.removeEventListener(SESSION_CHANGED, reread);
  }, []);

  // A 401 on any authenticated call means the session was revoked or expired.
  useEffect(() => {
    setUnauthorizedListener(expire);
    return () => setUnauthorizedListener(null);
  }, [expire]);

  const applyResult = useCallback((result: AuthResult) => {
    const user = withPendingMe(result.user);
    writeSession({ ...result, user });
    storeAppPreferences(user.appPreferences);
    setState({ status: 'signedIn', user });
  }, []);

  // Every 5 minutes (and when the app comes back to the foreground): refresh a token close to
  // expiry, then log out when it has expired or expires within 5 minutes (spec section 4).
  const signedIn = state.status === 'signedIn';
  useEffect(() => {
    if (!signedIn) return;
    let running = false;
    const check = async () => {
      if (running) return;
      running = true;
      try {
        const s = readSession();
        let expiresAt = s.expiresAt;
        if (s.token && shouldRefresh(expiresAt, new Date())) {
          try {
            const r = await call('POST /auth/refresh');
            applyResult(r);
            expiresAt = new Date(r.expiresAt);
          } catch {
            // Keep the old token; the check below decides whether it is still good.
          }
        }
        const verdict = tokenCheck(s.token ? expiresAt : null, new Date());
        if (verdict === 'logout') expire();
        else if (verdict === 'unauthenticated') {
          localSignOut();
          navigate('/', { replace: true });
        }
      } finally {
        running = false;
      }
    };
    const id = setInterval(check, TOKEN_CHECK_INTERVAL_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void check();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(id);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [signedIn, applyResult, expire, localSignOut, navigate]);

  const value = useMemo<AuthApi>(
    () => ({
      state,
      user: state.status === 'signedIn' ? state.user : null,
      applyResult,
      updateUser: (user) => {
        writeUser(user);
        setState({ status: 'signedIn', user });
      },
      signIn: async (email, password) => {
        const r = await call('POST /auth/login', { body: { email, password }, token: null });
        applyResult(r);
      },
      signUp: async (email, password) => {
        const r = await call('POST /auth/signup', { body: { email, password }, token: null });
        applyResult(r);
      },
      signOut: async () => {
        let failed = false;
        statusRef.current = 'signedOut'; // a 401 here is not a "session expired" moment
        await beforeSignOut?.().catch(() => {});
        try {
          await call('POST /auth/logout');
        } catch (e) {
          // An already-dead session is signed out as far as the server is concerned.
          failed = !(e instanceof ApiError && e.status === 401);
        }
        localSignOut();
        navigate('/', { replace: true });
        if (failed) toast.error(Messages.logoutFailed);
      },
      retryInit: () => setInitRun((n) => n + 1),
    }),
    [state, applyResult, localSignOut, navigate, toast, beforeSignOut],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
