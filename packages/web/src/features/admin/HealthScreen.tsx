import { type HealthState, healthChecks } from '@fmk/core';
import { Button } from '../../ui/Button.tsx';
import { Card, Pill } from '../../ui/Section.tsx';
import { DataTable, QueryState, ScreenTitle, when } from './parts.tsx';
import { adminKeys, useStaffQuery } from './queries.ts';
import { staffCall } from './session.ts';

const tone = { ok: 'good', warn: 'warn', red: 'alert' } as const;
const word: Record<HealthState, string> = { ok: 'OK', warn: 'Warning', red: 'Alert' };

/** system/health: the server's own figures, each against its threshold, and the slowest routes. */
export function SystemHealthScreen() {
  const q = useStaffQuery(adminKeys.health(), () => staffCall('GET /admin/system/health'));
  return (
    <>
      <ScreenTitle
        actions={
          <Button variant="secondary" className="min-h-10 px-3 text-sm" loading={q.isFetching} onClick={() => void q.refetch()}>
            Refresh
          </Button>
        }
      >
        System health
      </ScreenTitle>
      <QueryState q={q} what="the system figures">
        {(h) => {
          const checks = healthChecks(h);
          const bad = checks.filter((c) => c.state !== 'ok').length;
          return (
            <div className="flex flex-col gap-6">
              <p className="text-sm text-muted" role="status">
                {bad === 0 ? 'Every figure is within its threshold.' : `${bad} figure${bad === 1 ? '' : 's'} need attention.`}{' '}
                Checked {when(h.checkedAt)}; up for {Math.round(h.uptimeSeconds / 60)} min.
              </p>
              <ul className="grid gap-3 sm:grid-cols-2" aria-label="Figures">
                {checks.map((c) => (
                  <li key={c.key}>
                    <Card tone={c.state === 'red' ? 'alert' : 'plain'} className="h-full">
                      <div className="flex items-start justify-between gap-2">
                        <h2 className="font-semibold text-ink">{c.label}</h2>
                        <Pill tone={tone[c.state]}>{word[c.state]}</Pill>
                      </div>
                      <p className="mt-1 break-words text-ink">{c.value}</p>
                      <p className="mt-1 text-xs text-muted">Threshold: {c.threshold}</p>
                    </Card>
                  </li>
                ))}
              </ul>
              <section aria-labelledby="slow-routes">
                <h2 id="slow-routes" className="mb-2 text-lg font-bold text-ink">
                  Slowest routes (last {h.requests.windowMinutes} min)
                </h2>
                {h.requests.slowRoutes.length === 0 ? (
                  <p className="text-sm text-muted">No call took longer than 1 s.</p>
                ) : (
                  <DataTable
                    label="Slow routes"
                    rows={h.requests.slowRoutes}
                    rowKey={(r) => r.route}
                    columns={[
                      { head: 'Route', cell: (r) => <span className="break-all font-mono text-xs">{r.route}</span> },
                      { head: 'Slow calls', cell: (r) => r.count },
                      { head: 'Slowest', cell: (r) => `${r.maxMs} ms` },
                    ]}
                  />
                )}
              </section>
              <section aria-labelledby="jobs">
                <h2 id="jobs" className="mb-2 text-lg font-bold text-ink">
                  Background jobs
                </h2>
                {h.jobs.length === 0 ? (
                  <p className="text-sm text-muted">No background job runs in this process.</p>
                ) : (
                  <DataTable
                    label="Background jobs"
                    rows={h.jobs}
                    rowKey={(j) => j.name}
                    columns={[
                      { head: 'Job', cell: (j) => j.name },
                      { head: 'Every', cell: (j) => `${Math.round(j.everyMs / 1000)} s` },
                      { head: 'Runs', cell: (j) => `${j.runs} (${j.failures} failed)` },
                      { head: 'Last run', cell: (j) => when(j.lastRunAt) },
                      {
                        head: 'State',
                        cell: (j) =>
                          j.lastOk === false ? (
                            <Pill tone="warn">Failed: {j.lastError}</Pill>
                          ) : j.running ? (
                            <Pill>Running</Pill>
                          ) : (
                            <Pill tone="good">{j.lastOk ? 'OK' : 'Not run yet'}</Pill>
                          ),
                      },
                    ]}
                  />
                )}
              </section>
            </div>
          );
        }}
      </QueryState>
    </>
  );
}
