import { api } from './client.ts';
import type { Endpoint, Endpoints, Method } from './endpoints.ts';

/** The path part of a table key: 'GET /users/:userId' → '/users/:userId'. */
type PathOf<E extends string> = E extends `${Method} ${infer P}` ? P : never;
/** The names of a path template's parameters: '/users/:userId/prompts/:promptId/like' → 'userId' | 'promptId'. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

type ParamsInput<E extends Endpoint> = [ParamNames<PathOf<E>>] extends [never]
  ? { params?: undefined }
  : { params: Record<ParamNames<PathOf<E>>, string> };
// A route that reads no body may still be sent an empty object, as a few calls always have.
type BodyInput<E extends Endpoint> = Endpoints[E] extends { body: infer B } ? { body: B } : { body?: Record<string, never> };
type QueryInput<E extends Endpoint> = Endpoints[E] extends { query: infer Q }
  ? object extends Q
    ? { query?: Q }
    : { query: Q }
  : { query?: undefined };

/** What a call of one route takes: its path's parameters, body and query as the table types them. */
export type CallInput<E extends Endpoint> = ParamsInput<E> &
  BodyInput<E> &
  QueryInput<E> & {
    signal?: AbortSignal;
    /** As api()'s: the request outlives the page (a hang-up as the tab closes). */
    keepalive?: boolean;
    /** As api()'s: overrides the stored token; null sends none. */
    token?: string | null;
  };

/** What a route answers (undefined for a 204). */
export type ResponseOf<E extends Endpoint> = Endpoints[E] extends { response: infer R } ? R : undefined;

/**
 * A query string from typed fields, in their order. Unset fields are left out, and so is false:
 * a flag the server reads as off when absent, and the grid's "any" (its early page, early.ts,
 * asks for the same path).
 */
export function searchOf(query: object): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === false || v === '') continue;
    params.set(k, String(v));
  }
  return params.toString();
}

/** The API path of a route with its parameters (encoded) and query filled in. */
export function pathOf(endpoint: Endpoint, input: { params?: Record<string, string>; query?: object } = {}): string {
  const template = endpoint.slice(endpoint.indexOf(' ') + 1);
  const params = input.params ?? {};
  const path = template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const search = input.query ? searchOf(input.query) : '';
  return search ? `${path}?${search}` : path;
}

/**
 * Calls one route of the endpoint table (endpoints.ts) through api(): its method and path come
 * from the table's key, its body, query and answer are typed by core's schemas.
 *   call('GET /users/:userId', { params: { userId } })  → Promise<PublicProfile>
 */
export function call<E extends Endpoint>(
  endpoint: E,
  ...[input]: object extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>]
): Promise<ResponseOf<E>> {
  const { params, query, body, signal, token, keepalive } = (input ?? {}) as {
    params?: Record<string, string>;
    query?: object;
    body?: unknown;
    signal?: AbortSignal;
    keepalive?: boolean;
    token?: string | null;
  };
  const method = endpoint.slice(0, endpoint.indexOf(' ')) as Method;
  return api<ResponseOf<E>>(pathOf(endpoint, { params, query }), {
    method,
    body,
    signal,
    ...(keepalive ? { keepalive } : {}),
    ...(token === undefined ? {} : { token }),
  });
}
