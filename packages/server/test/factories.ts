import { randomBytes } from 'node:crypto';
import type { AuthResult } from '@fmk/core';
import type { FastifyInstance } from 'fastify';

let n = 0;
/** A unique, valid email for a test user. */
export function newEmail(prefix = 'user'): string {
  n += 1;
  return `${prefix}${n}-${randomBytes(3).toString('hex')}@example.com`;
}

export const PASSWORD = 'correct horse battery';

/** Signs up a new user through the API; returns the token, its header and the user. */
export async function signUp(
  app: FastifyInstance,
  opts: { email?: string; password?: string } = {},
): Promise<AuthResult & { headers: { authorization: string } }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/signup',
    payload: { email: opts.email ?? newEmail(), password: opts.password ?? PASSWORD },
  });
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as AuthResult;
  return { ...body, headers: { authorization: `Bearer ${body.token}` } };
}
