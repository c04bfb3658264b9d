import type { FastifyInstance } from 'fastify';
import { fill, type RouteInfo } from './routes.ts';

export const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

export interface Walk {
  /** Every id the answers carried (lower case). */
  ids: Set<string>;
  /** Every answered GET: its URL and body, for the scans. */
  answers: { url: string; status: number; body: string }[];
}

/**
 * Reads everything one caller can read: each parameterless GET route, then each one-parameter
 * GET route with every id found so far (and `seedIds`), collecting the ids and bodies of the answers.
 */
export async function walkGets(
  app: FastifyInstance,
  routes: RouteInfo[],
  headers: Record<string, string>,
  seedIds: string[] = [],
): Promise<Walk> {
  const ids = new Set<string>(seedIds.map((s) => s.toLowerCase()));
  const answers: Walk['answers'] = [];
  const read = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers });
    answers.push({ url, status: res.statusCode, body: res.body });
    if (res.statusCode < 300) for (const m of res.body.matchAll(UUID)) ids.add(m[0].toLowerCase());
  };
  const gets = routes.filter((r) => r.method === 'GET');
  for (const r of gets.filter((r) => r.params.length === 0)) await read(fill(r, []));
  const firstLevel = [...ids];
  for (const r of gets.filter((r) => r.params.length === 1)) {
    for (const id of firstLevel) await read(fill(r, [id]));
  }
  return { ids, answers };
}
