import { AUTH_STORAGE_KEYS } from '@fmk/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, pathOf } from './call.ts';
import { ApiError } from './client.ts';

interface Sent {
  url: string;
  method: string | undefined;
  headers: Record<string, string>;
  body: unknown;
}

function stubFetch(status: number, answer?: unknown): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      sent.push({
        url,
        method: init.method,
        headers: init.headers as Record<string, string>,
        body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      });
      return new Response(answer === undefined ? null : JSON.stringify(answer), { status });
    }),
  );
  return sent;
}

beforeEach(() => localStorage.setItem(AUTH_STORAGE_KEYS.token, 'tok'));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('call', () => {
  it("takes the method and path from the table's key, encodes parameters and sends the body", async () => {
    const sent = stubFetch(200, { liked: true, likeCount: 3 });
    const r = await call('POST /users/:userId/prompts/:promptId/like', { params: { userId: 'u/1', promptId: 'p 2' } });
    expect(r).toEqual({ liked: true, likeCount: 3 });
    expect(sent).toEqual([
      {
        url: '/api/v1/users/u%2F1/prompts/p%202/like',
        method: 'POST',
        headers: { Accept: 'application/json', Authorization: 'Bearer tok' },
        body: undefined,
      },
    ]);

    await call('PUT /me/location', { body: { lat: 1, lng: 2 } });
    expect(sent[1]).toMatchObject({ url: '/api/v1/me/location', method: 'PUT', body: { lat: 1, lng: 2 } });
  });

  it('leaves unset and false query fields out, in their order', async () => {
    expect(pathOf('GET /grid', { query: { cursor: undefined, limit: 60, onlineOnly: false, tribe: '', showMe: 'men' } })).toBe(
      '/grid?limit=60&showMe=men',
    );
    expect(pathOf('GET /messages/since', { query: { after: 12 } })).toBe('/messages/since?after=12');
    expect(pathOf('GET /conversations/:id/messages', { params: { id: 'c1' }, query: {} })).toBe('/conversations/c1/messages');
  });

  it("keeps api()'s token override, 204 and errors", async () => {
    const sent = stubFetch(204);
    expect(await call('POST /auth/logout', { token: 'other' })).toBeUndefined();
    expect(sent[0]?.headers.Authorization).toBe('Bearer other');
    await call('GET /config', { token: null });
    expect(sent[1]?.headers.Authorization).toBeUndefined();

    stubFetch(404, { error: 'not_found', message: 'Could not find him' });
    await expect(call('GET /users/:userId', { params: { userId: 'x' } })).rejects.toEqual(
      new ApiError(404, 'Could not find him', 'not_found'),
    );
  });
});

/** Type checks only (never run): what the table lets a call site write. */
export async function typesOnly() {
  // @ts-expect-error a route's parameters are required
  await call('GET /users/:userId');
  // @ts-expect-error and named as in the path
  await call('GET /users/:userId', { params: { id: 'x' } });
  // @ts-expect-error a body the route's schema does not take
  await call('PATCH /me', { body: { nope: 1 } });
  // @ts-expect-error a body where the route reads none
  await call('POST /likes/seen', { body: { seen: true } });
  // @ts-expect-error a required query field
  await call('GET /messages/since');
  // @ts-expect-error a route the table does not have
  await call('GET /nope');
  const me: { uid: string } = await call('GET /me');
  const none: undefined = await call('DELETE /me/location');
  return [me, none];
}
