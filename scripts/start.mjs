// `npm start`: builds the web app when its sources are newer than the build, then runs the server
// (TypeScript through tsx) on PORT (8080) with the embedded database in DATA_DIR (default: the root's data/,
// the same folder `npm run seed` fills; see packages/server/src/platform/config.ts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'packages/web/dist/index.html');

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let m = 0;
  for (const e of readdirSync(p)) if (e !== 'node_modules' && e !== 'dist') m = Math.max(m, newest(path.join(p, e)));
  return m;
}

const sources = ['packages/web', 'packages/core/src'].map((p) => newest(path.join(root, p)));
if (!existsSync(built) || Math.max(...sources) > statSync(built).mtimeMs) {
  console.log('Building the web app...');
  const r = spawnSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'packages/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  // libuv's pool (4 threads by default) serves photo re-encoding, file writes and password hashing:
  // two more threads than CPUs keeps every CPU on photos with threads to spare (image.ts IMAGE_JOBS).
  env: { NODE_ENV: 'development', UV_THREADPOOL_SIZE: String(Math.max(4, availableParallelism() + 2)), ...process.env },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
