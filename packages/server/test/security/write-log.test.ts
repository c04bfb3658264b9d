import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { signUpMember } from '../factories.ts';
import { DB_KINDS, useTestApp } from '../harness.ts';
import { installWriteLog, ownWrites, refused, type WriteLog } from './write-log.ts';

/**
 * The fuzzer's "nothing written by a refused request" is only as good as its detector: these
 * test-only routes (never part of the app) refuse after writing, or write in ways a table's row
 * count and newest updated_at do not show, and the detector must see each; a write rolled back,
 * or one to a table that records refusals, it must not.
 */
describe.each(DB_KINDS)('the fuzzer’s write detector on %s', (kind) => {
  let background: Promise<void> = Promise.resolve();
  const t = useTestApp(kind, {
    setup: (app) => {
      const rawDb = () => current().db;
      app.post<{ Body: { id: string } }>('/test-only/touch-then-refuse', async (req, reply) => {
        // Same name, same updated_at, same row count: only the write itself shows.
        await sql`update users set display_name = display_name where id = ${req.body.id}`.execute(rawDb());
        return reply.code(400).send({ error: 'refused after writing' });
      });
      app.post<{ Body: { id: string } }>('/test-only/rolled-back', async (req, reply) => {
        await rawDb()
          .transaction()
          .execute(async (trx) => {
            await sql`update users set display_name = 'x' where id = ${req.body.id}`.execute(trx);
            throw new Error('roll back');
          })
          .catch(() => undefined);
        return reply.code(409).send({ error: 'conflict' });
      });
      app.post('/test-only/record-refusal', async (_req, reply) => {
        await sql`insert into auth_attempts (key, created_at) values ('test', now())`.execute(rawDb());
        return reply.code(429).send({ error: 'slow down' });
      });
      app.post<{ Body: { id: string } }>('/test-only/accept-then-write', async (req, reply) => {
        background = new Promise((r) => setTimeout(r, 30)).then(async () => {
          await sql`update users set display_name = 'later' where id = ${req.body.id}`.execute(rawDb());
        });
        return reply.code(202).send({});
      });
      app.post('/test-only/refuse', async (_req, reply) => reply.code(400).send({ error: 'no' }));
    },
  });
  const current = () => t();

  async function withLog(run: (log: WriteLog, id: string) => Promise<void>): Promise<void> {
    const m = await signUpMember(t().app, t().db);
    const p = t().pglite;
    const log = await installWriteLog(
      t().db,
      p ? { pglite: p } : { url: process.env.TEST_DATABASE_URL! },
      new Set(['auth_attempts']),
    );
    try {
      await run(log, m.user.uid);
    } finally {
      await log.close();
    }
  }
  const post = (url: string, id: string) => t().app.inject({ method: 'POST', url, payload: { id } });

  it('catches a refused request that wrote, even a write that changes no count and no updated_at', async () => {
    await withLog(async (log, id) => {
      const res = await post('/test-only/touch-then-refuse', id);
      expect(refused(res.statusCode)).toBe(true);
      await log.sync();
      expect(log.take()).toEqual(['users UPDATE']);
      // Sent again alone, it writes again (twice): the fuzzer reports it.
      expect(await ownWrites(log, () => post('/test-only/touch-then-refuse', id))).toEqual(['users UPDATE']);
    });
  });

  it('sees every committed write at once, request after request', async () => {
    await withLog(async (log, id) => {
      for (let i = 0; i < 50; i++) {
        await post('/test-only/touch-then-refuse', id);
        await log.sync();
        expect(log.take()).toEqual(['users UPDATE']);
        await post('/test-only/refuse', id);
        await log.sync();
        expect(log.take()).toEqual([]);
      }
    });
  });

  it('does not count a write rolled back, nor one to a table that records refusals', async () => {
    await withLog(async (log, id) => {
      expect((await post('/test-only/rolled-back', id)).statusCode).toBe(409);
      expect((await post('/test-only/record-refusal', id)).statusCode).toBe(429);
      await log.sync();
      expect(log.take()).toEqual([]);
    });
  });

  it('clears a refused request that another request’s background work wrote during', async () => {
    await withLog(async (log, id) => {
      expect((await post('/test-only/accept-then-write', id)).statusCode).toBe(202);
      await log.sync();
      log.take();
      // The refused request is answered while the accepted one's work is still to write.
      await post('/test-only/refuse', id);
      await background;
      await log.sync();
      expect(log.take()).toEqual(['users UPDATE']);
      expect(await ownWrites(log, () => post('/test-only/refuse', id))).toEqual([]);
    });
  });
});
