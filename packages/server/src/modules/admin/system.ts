import { getHeapStatistics } from 'node:v8';
import type { SystemHealth } from '@fmk/core';
import { jobStatuses } from '../../platform/jobs.ts';
import type { AppDeps } from '../../platform/module.ts';
import { connectionCount, databaseSizeMb } from './repo/system.ts';
import * as stats from './repo/users.ts';

const mb = (bytes: number) => Math.round(bytes / 1_048_576);

/** system/health: the process measures itself (requests, memory, event loop) and looks at its database, jobs and bus. */
export async function systemHealth(deps: Pick<AppDeps, 'db' | 'dbKind' | 'clock' | 'bus' | 'metrics'>): Promise<SystemHealth> {
  const { db } = deps;
  let database: SystemHealth['database'];
  try {
    const t0 = performance.now();
    await stats.ping(db);
    const latencyMs = Math.round((performance.now() - t0) * 10) / 10;
    const [connections, sizeMb] = await Promise.all([connectionCount(db), databaseSizeMb(db)]);
    database = { kind: deps.dbKind, ok: true, latencyMs, connections, sizeMb, error: null };
  } catch (err) {
    database = {
      kind: deps.dbKind,
      ok: false,
      latencyMs: null,
      connections: null,
      sizeMb: null,
      error: err instanceof Error ? err.message : 'no answer',
    };
  }
  const [live, queue] = database.ok
    ? await Promise.all([stats.liveConnections(db), stats.queueCounts(db, deps.clock.now())])
    : [0, { pendingModeration: 0 }];
  const mem = process.memoryUsage();
  return {
    checkedAt: deps.clock.now().toISOString(),
    uptimeSeconds: Math.round(process.uptime()),
    requests: deps.metrics.requests.figures(),
    memory: {
      rssMb: mb(mem.rss),
      heapUsedMb: mb(mem.heapUsed),
      heapTotalMb: mb(mem.heapTotal),
      heapLimitMb: mb(getHeapStatistics().heap_size_limit),
    },
    eventLoop: deps.metrics.eventLoop(),
    database,
    jobs: jobStatuses(),
    bus: deps.bus.state?.() ?? { kind: 'unknown', connected: true, subscribers: 0 },
    liveConnections: live,
    moderationQueue: queue.pendingModeration,
  };
}
