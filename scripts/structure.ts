// The code's shape, measured: import cycles, reaches across feature boundaries, SQL outside repos,
// long files. `npx tsx scripts/structure.ts` prints the figures; packages/server/test/structure.test.ts
// holds them to their ceilings so that a new cycle or a new reach into another feature fails CI.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface SourceFile {
  /** Relative to the repository root, with forward slashes. */
  file: string;
  text: string;
  lines: number;
  /** Relative imports resolved to files, split by whether they survive compilation. */
  imports: { target: string; typeOnly: boolean }[];
}

const isTest = (f: string) => /\.(test|e2e)\.tsx?$/.test(f) || f.includes('/test/');

const TS_RE = /\.tsx?$/;

function walk(dir: string, wanted: RegExp = TS_RE, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, wanted, out);
    else if (wanted.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

// `import x from './a.ts'`, `import type {…} from`, `export … from`, and `import('./a.ts')`.
const IMPORT_RE = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.[^'"]+)['"]/g;
const DYNAMIC_RE = /import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** The source files (tests left out) under `dirs`, with their relative imports. */
export function readSources(dirs: string[]): SourceFile[] {
  const files = dirs.flatMap((d) => walk(path.join(ROOT, d))).filter((f) => !isTest(f));
  return files.map((full) => {
    const text = readFileSync(full, 'utf8');
    const imports: SourceFile['imports'] = [];
    const add = (spec: string, typeOnly: boolean) => {
      const target = path.resolve(path.dirname(full), spec);
      imports.push({ target: path.relative(ROOT, target).split(path.sep).join('/'), typeOnly });
    };
    for (const m of text.matchAll(IMPORT_RE)) {
      // An import whose every name is `type X` is erased too.
      const clause = m[0];
      const allTypes = /\{([^}]*)\}/
        .exec(clause)?.[1]
        ?.split(',')
        .every((n) => !n.trim() || n.trim().startsWith('type '));
      add(m[3]!, Boolean(m[2]) || (allTypes === true && !/import\s+\w+\s*,/.test(clause) && clause.includes('{')));
    }
    // A lazy import() is a boundary the bundler splits at; it still counts as a dependency.
    for (const m of text.matchAll(DYNAMIC_RE)) add(m[1]!, false);
    return {
      file: path.relative(ROOT, full).split(path.sep).join('/'),
      text,
      lines: text.split('\n').length,
      imports,
    };
  });
}

/**
 * The hand-kept SQL files under `dirs` (the message send's function text beside the messaging repo),
 * as sources with no imports. `__snapshots__` are left out: they are compiled from repo queries by
 * the sql tests, so whatever rule they hold is written once, in the repo they come from.
 */
export function readSqlFiles(dirs: string[]): SourceFile[] {
  return dirs
    .flatMap((d) => walk(path.join(ROOT, d), /\.sql$/))
    .filter((f) => !f.split(path.sep).includes('__snapshots__'))
    .map((full) => {
      const text = readFileSync(full, 'utf8');
      return { file: path.relative(ROOT, full).split(path.sep).join('/'), text, lines: text.split('\n').length, imports: [] };
    });
}

/** Strongly connected groups of more than one file (Tarjan): each is at least one cycle. */
export function cycles(files: SourceFile[], withTypes: boolean): string[][] {
  const known = new Set(files.map((f) => f.file));
  const edges = new Map(
    files.map((f) => [f.file, f.imports.filter((i) => (withTypes || !i.typeOnly) && known.has(i.target)).map((i) => i.target)]),
  );
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) out.push(group.sort());
    }
  };
  for (const f of edges.keys()) if (!idx.has(f)) visit(f);
  return out;
}

const featureOf = (file: string) => /packages\/server\/src\/modules\/([^/]+)\//.exec(file)?.[1] ?? null;
const webFeatureOf = (file: string) => /packages\/web\/src\/features\/([^/]+)\//.exec(file)?.[1] ?? null;

/**
 * Cycles between features (a feature imports another that, through any of its files, imports it
 * back): each feature folder as one node.
 */
export function featureCycles(files: SourceFile[], of: (file: string) => string | null): string[][] {
  const byFeature = new Map<string, Set<string>>();
  for (const f of files) {
    const a = of(f.file);
    if (!a) continue;
    const deps = byFeature.get(a) ?? new Set<string>();
    byFeature.set(a, deps);
    for (const i of f.imports) {
      const b = of(i.target);
      if (b && b !== a) deps.add(b);
    }
  }
  const nodes: SourceFile[] = [...byFeature].map(([feature, deps]) => ({
    file: feature,
    text: '',
    lines: 0,
    imports: [...deps].map((target) => ({ target, typeOnly: false })),
  }));
  return cycles(nodes, true);
}

/** A repo file: a feature's repo.ts, or one of the files a long repo is split into (repo/, repos/). */
const isRepoFile = (f: string) => /\/repo\.ts$|\/repos?\//.test(f);

/** Imports from one server feature into another feature's files (`repo` alone: into its repo files). */
export function crossFeatureImports(files: SourceFile[]): { from: string; to: string; repo: boolean }[] {
  const out: { from: string; to: string; repo: boolean }[] = [];
  for (const f of files) {
    const a = featureOf(f.file);
    if (!a) continue;
    for (const i of f.imports) {
      const b = featureOf(i.target);
      if (b && b !== a) out.push({ from: f.file, to: i.target, repo: isRepoFile(i.target) });
    }
  }
  return out;
}

const QUERY_RE = /\.(selectFrom|insertInto|updateTable|deleteFrom|selectNoFrom)\(|\bsql`|\.execute\(\s*sql|\bdb\.query\(/;

/** Server files outside repos (and outside db/, the seed and migrations) that build SQL. */
export function queriesOutsideRepos(files: SourceFile[]): string[] {
  return files
    .filter((f) => f.file.startsWith('packages/server/src/'))
    .filter((f) => !isRepoFile(f.file))
    .filter((f) => !f.file.startsWith('packages/server/src/db/'))
    .filter((f) => !/\/seed[^/]*\.ts$/.test(f.file))
    .filter((f) => QUERY_RE.test(f.text))
    .map((f) => f.file);
}

/**
 * Server source files that write the "neither blocked the other" rule (they name user_blocks):
 * TypeScript and the hand-kept .sql files, since a rule written in SQL is written all the same.
 */
export function blockRulePlaces(files: SourceFile[]): string[] {
  return files
    .filter((f) => f.file.startsWith('packages/server/src/') && !f.file.includes('/migrations/'))
    .filter((f) => !/\/seed[^/]*\.ts$/.test(f.file) && !f.file.endsWith('/db/schema.ts'))
    .filter((f) => /user_blocks/.test(f.text))
    .map((f) => f.file);
}

/** Web feature files that import the app shell (src/app/). */
export function webFeatureImportsOfApp(files: SourceFile[]): string[] {
  return files
    .filter((f) => f.file.startsWith('packages/web/src/features/'))
    .flatMap((f) => f.imports.filter((i) => i.target.startsWith('packages/web/src/app/')).map((i) => `${f.file} -> ${i.target}`));
}

/** Source files over `max` lines, outside the seed and the database schema. */
export function longFiles(files: SourceFile[], max = 400): { file: string; lines: number }[] {
  return files
    .filter((f) => !/\/seed[^/]*\.ts$/.test(f.file) && !f.file.endsWith('/db/schema.ts') && !f.file.includes('/migrations/'))
    .filter((f) => f.lines > max)
    .map((f) => ({ file: f.file, lines: f.lines }))
    .sort((a, b) => b.lines - a.lines);
}

export function measure() {
  const server = readSources(['packages/server/src']);
  const web = readSources(['packages/web/src']);
  const core = readSources(['packages/core/src']);
  const all = [...server, ...web, ...core];
  const cross = crossFeatureImports(server);
  return {
    serverFeatureCycles: featureCycles(server, featureOf),
    webFeatureCycles: featureCycles(web, webFeatureOf),
    serverCycles: cycles(server, false),
    serverTypeCycles: cycles(server, true),
    webCycles: cycles(web, false),
    webTypeCycles: cycles(web, true),
    crossFeatureImports: cross,
    crossFeatureRepoImports: cross.filter((c) => c.repo),
    // A feature is reached through its service (or a platform module), never its other files.
    crossFeatureImportsPastService: cross.filter((c) => !c.to.endsWith('/service.ts')),
    queriesOutsideRepos: queriesOutsideRepos(server),
    blockRulePlaces: blockRulePlaces([...server, ...readSqlFiles(['packages/server/src'])]),
    webFeatureImportsOfApp: webFeatureImportsOfApp(web),
    longFiles: longFiles(all),
    webLongFiles: longFiles(web),
    serverCoreLongFiles: longFiles([...server, ...core]),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const m = measure();
  const show = (name: string, list: unknown[]) => {
    console.log(`${name}: ${list.length}`);
    if (process.argv.includes('--list')) for (const x of list) console.log(`  ${typeof x === 'string' ? x : JSON.stringify(x)}`);
  };
  show('server feature cycles', m.serverFeatureCycles);
  show('web feature cycles', m.webFeatureCycles);
  show('server import cycles (runtime)', m.serverCycles);
  show('server import cycles (with type imports)', m.serverTypeCycles);
  show('web import cycles (runtime)', m.webCycles);
  show('web import cycles (with type imports)', m.webTypeCycles);
  show('server cross-feature imports', m.crossFeatureImports);
  show('server cross-feature imports into a repo', m.crossFeatureRepoImports);
  show("server cross-feature imports past the other feature's service", m.crossFeatureImportsPastService);
  show('server files with SQL outside repos', m.queriesOutsideRepos);
  show('server files writing the block rule', m.blockRulePlaces);
  show('web feature imports of app/', m.webFeatureImportsOfApp);
  show('source files over 400 lines', m.longFiles);
  show('web source files over 400 lines', m.webLongFiles);
  show('core and server source files over 400 lines', m.serverCoreLongFiles);
}
