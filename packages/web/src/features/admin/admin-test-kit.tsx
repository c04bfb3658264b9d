import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { vi } from 'vitest';
import { AdminArea } from './AdminArea.tsx';
import { setStaffSession } from './session.ts';

// What every admin screen test needs: a staff session, the server as the browser meets it (a
// fetch stand-in answering /admin/me and the routes the test names, recording every call), and
// the admin area mounted at a path. Used by the admin screens' tests only.

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export type Call = { method: string; url: URL; body: unknown; auth: string | null };
export type Answer = (method: string, url: URL, body: unknown) => Response | Promise<Response> | undefined;

export interface ServeOptions {
  /** The explicit permissions list on the staff record; null for the role's defaults. */
  permissions?: string[] | null;
  userId?: string;
}

/**
 * Stands in for fetch: /admin/me answers the role (and explicit list) given, `routes` answers the
 * rest, anything else is a 500. Returns the calls made, in order.
 */
export function serveAdmin(role: string, routes: Answer, opts: ServeOptions = {}): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, url, body, auth: new Headers(init?.headers).get('authorization') });
      if (url.pathname.endsWith('/admin/me'))
        return json({
          userId: opts.userId ?? 'u1',
          email: 's@example.com',
          role,
          permissions: opts.permissions ?? null,
          totpEnabled: true,
          recoveryCodesLeft: 10,
        });
      return (await routes(method, url, body)) ?? json({ error: 'x', message: 'nope' }, 500);
    }),
  );
  return calls;
}

/** Signs a staff session in and mounts the admin area at `path` (e.g. '/admin/users'). */
export function startAdmin(path: string) {
  setStaffSession({ token: 'staff-token', expiresAt: new Date(Date.now() + 3600_000).toISOString() });
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/admin/*" element={<AdminArea />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** For afterEach: unmounts, signs the staff session out and puts fetch back. */
export function resetAdmin() {
  cleanup();
  setStaffSession(null);
  vi.unstubAllGlobals();
}
