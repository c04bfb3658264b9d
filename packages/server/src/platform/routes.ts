import type { FastifyInstance, RouteOptions } from 'fastify';
import { requireAuth } from './auth.ts';
import { refuseNul } from './input-text.ts';

/** One registered route, as Fastify's route list has it (for the tests that walk every route). */
export interface RouteEntry {
  method: string;
  url: string;
  websocket: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, in order: the route list tests walk (headers, anonymous access). */
    routeList: readonly RouteEntry[];
  }
}

type Hook = NonNullable<RouteOptions['preHandler']>;
const asList = (h: Hook | undefined) => (h === undefined ? [] : Array.isArray(h) ? [...h] : [h]);

/**
 * Records every route and puts `requireAuth` first: a route declares it as a preHandler, which
 * Fastify runs after validating the body, so an anonymous caller used to get the route's field
 * errors (learning its schema) before being told to sign in. Moved to preValidation here, once
 * for every route, an anonymous request is answered 401 before its body or query is read.
 * Every route also refuses text with a NUL character (platform/input-text.ts), after that check.
 * Installed before any route, and before the staff gate so the gate's own check stays first on
 * /admin routes.
 */
export function installRouteGuards(app: FastifyInstance): void {
  const list: RouteEntry[] = [];
  app.decorate('routeList', list);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) list.push({ method, url: route.url, websocket: Boolean(route.websocket) });
    const pre = asList(route.preHandler);
    // Text with a NUL character is refused (400) for every route, after the session check.
    const checks = [...asList(route.preValidation), refuseNul];
    if (!pre.includes(requireAuth)) {
      route.preValidation = checks as RouteOptions['preValidation'];
      return;
    }
    route.preHandler = pre.filter((h) => h !== requireAuth);
    route.preValidation = [requireAuth, ...checks] as RouteOptions['preValidation'];
  });
}
