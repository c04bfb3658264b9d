import type { ChildProcess } from 'node:child_process';

/** Shared by the endpoint-vs-raw-SQL benchmarks (grid, cruise): percentiles, IPC, closed-loop load. */

export function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function summary(lat: number[], seconds: number) {
  const s = [...lat].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 100) / 100;
  return { p50: r(pct(s, 50)), p95: r(pct(s, 95)), p99: r(pct(s, 99)), rps: Math.round(lat.length / seconds) };
}

/** The next IPC message from the bench's server process that carries `key`. */
export function waitFor<T>(child: ChildProcess, key: string, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMsg = (m: Record<string, unknown>) => {
      if (key in m) {
        child.off('message', onMsg);
        resolve(m as T);
      }
    };
    child.on('message', onMsg);
    child.once('exit', (code) => reject(new Error(`${what} bench server exited (${code})`)));
  });
}

/** `count` GETs of `path` by `concurrency` clients, each viewer's token in turn; an answer without `"items"` is an error. */
export async function load(port: number, path: string, auth: string[], count: number, concurrency: number) {
  const lat: number[] = [];
  let errors = 0;
  let next = 0;
  const url = `http://127.0.0.1:${port}${path}`;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const k = next++;
        if (k >= count) return;
        const s = performance.now();
        const res = await fetch(url, { headers: { authorization: auth[k % auth.length]! } });
        const body = await res.text();
        lat.push(performance.now() - s);
        if (res.status !== 200 || !body.includes('"items"')) errors += 1;
      }
    }),
  );
  return { lat, seconds: (performance.now() - t0) / 1000, errors };
}
