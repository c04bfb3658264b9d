import type { FastifyInstance } from 'fastify';

/**
 * The server's own route list, as the security tests walk it: every documented route under
 * /api/v1 with its method, its path template (':param' style) and its JSON body schema. A route
 * added later is walked without anyone listing it.
 */
export const PREFIX = '/api/v1';

export interface RouteInfo {
  key: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  params: string[];
  body: JsonSchema | null;
  /** The body is a multipart upload (a photo, a screenshot): the probes send bytes, not JSON. */
  multipart: boolean;
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  minItems?: number;
  pattern?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
}

interface OperationDoc {
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export function apiRoutes(app: FastifyInstance): RouteInfo[] {
  const paths = (app.swagger() as { paths?: Record<string, Record<string, OperationDoc>> }).paths ?? {};
  return Object.entries(paths).flatMap(([docPath, item]) => {
    if (!docPath.startsWith(`${PREFIX}/`)) return [];
    const path = docPath.slice(PREFIX.length).replace(/\{(\w+)\}/g, ':$1');
    const params = [...path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
    return Object.entries(item ?? {})
      .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map(([m, op]) => {
        const content = op.requestBody?.content ?? {};
        const method = m.toUpperCase() as RouteInfo['method'];
        return {
          key: `${method} ${path}`,
          method,
          path,
          params,
          body: content['application/json']?.schema ?? null,
          multipart: 'multipart/form-data' in content,
        };
      });
  });
}

/** The URL of a route with its parameters filled in order. */
export function fill(route: RouteInfo, values: string[]): string {
  let i = 0;
  return PREFIX + route.path.replace(/:(\w+)/g, () => encodeURIComponent(values[i++] ?? values[0] ?? ''));
}

/**
 * A small valid-looking body for a JSON schema: the required fields with plausible values, so a
 * probe gets past validation to the check that matters (ownership, tier, role) where it can.
 */
export function exampleOf(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const alt = schema.anyOf ?? schema.oneOf;
  if (alt?.length) return exampleOf(alt.find((s) => s.type !== 'null') ?? alt[0], depth + 1);
  if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map((s) => exampleOf(s, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const k of schema.required ?? []) out[k] = exampleOf(schema.properties?.[k], depth + 1);
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => exampleOf(schema.items, depth + 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000001';
      if (schema.format === 'email') return 'probe@example.com';
      if (schema.format === 'date-time') return '2026-06-01T12:00:00.000Z';
      if (schema.format === 'date') return '2026-06-01';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    default:
      return null;
  }
}
