/**
 * The production build made once and reused (decision 162): `npm run build` records which sources
 * it was made from (`build/.source-hash`), and the test commands that need a build
 * (`test:e2e`, `test:security`, `test:faults`, `test:deploy`) build only when that record is
 * missing or differs from the sources now. `.ci/run` therefore builds once per run; each of these
 * commands alone still builds from a fresh clone.
 *
 *   node scripts/build-stamp.ts begin    first step of `npm run build`: hash the sources, forget the old stamp
 *   node scripts/build-stamp.ts commit   last step of `npm run build`: the build is of those sources
 *   node scripts/build-stamp.ts ensure   `npm run build` unless build/ is of the sources as they are now
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

/**
 * What never goes into the build: tests, tooling output and everything `.gitignore` names. Every
 * other file of the clone counts (a changed README rebuilds; a missed input never goes stale).
 */
const skippedDirectories = new Set([
  '.git',
  'node_modules',
  'build',
  'var',
  '.react-router',
  '.vite-cache',
  'test-results',
  'playwright-report',
  'reports',
  'tests',
  path.join('bench', 'results'),
]);
const skippedFile = /(\.test\.tsx?|\.log)$|^\.env$/;

function sourceFiles(root: string, dir = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skippedDirectories.has(relative)) files.push(...sourceFiles(root, relative));
    } else if (entry.isFile() && !skippedFile.test(entry.name)) files.push(relative);
  }
  return files;
}

/** One hash of every build input under `root` (names and contents) and the Node that builds. */
export function sourceHash(root = process.cwd()): string {
  const hash = createHash('sha256').update(`node ${process.version}\n`);
  for (const file of sourceFiles(root).sort()) {
    hash.update(`${file.split(path.sep).join('/')}\0`);
    hash.update(
      createHash('sha256')
        .update(readFileSync(path.join(root, file)))
        .digest(),
    );
  }
  return hash.digest('hex');
}

export function stampPaths(root = process.cwd()) {
  const buildDir = path.join(root, 'build');
  return {
    buildDir,
    stamp: path.join(buildDir, '.source-hash'),
    // Outside build/: the build empties build/ first.
    pending: path.join(root, 'node_modules', '.cache', 'build-source-hash.pending'),
    entry: path.join(buildDir, 'service', 'main.js'),
  };
}

/** Before building: the sources are hashed now, so an edit during the build makes the stamp stale. */
export function beginBuild(root = process.cwd()): void {
  const paths = stampPaths(root);
  rmSync(paths.stamp, { force: true });
  mkdirSync(path.dirname(paths.pending), { recursive: true });
  writeFileSync(paths.pending, `${sourceHash(root)}\n`);
}

/** After a build that succeeded: what `beginBuild` hashed is what build/ now holds. */
export function commitBuild(root = process.cwd()): void {
  const paths = stampPaths(root);
  if (existsSync(paths.pending) && existsSync(paths.buildDir))
    renameSync(paths.pending, paths.stamp);
}

/** Whether build/ was made from the sources as they are now. */
export function buildIsCurrent(root = process.cwd()): boolean {
  const paths = stampPaths(root);
  if (!existsSync(paths.stamp) || !existsSync(paths.entry)) return false;
  return readFileSync(paths.stamp, 'utf8').trim() === sourceHash(root);
}

if (import.meta.main) {
  const command = process.argv[2];
  if (command === 'begin') {
    beginBuild();
  } else if (command === 'commit') {
    commitBuild();
  } else if (command === 'ensure') {
    if (buildIsCurrent()) {
      console.log('build/ is up to date with the sources (build/.source-hash); not rebuilding');
    } else {
      const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
      process.exit(build.status ?? 1);
    }
  } else {
    console.error('usage: node scripts/build-stamp.ts begin|commit|ensure');
    process.exit(2);
  }
}
