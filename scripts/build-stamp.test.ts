import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beginBuild, buildIsCurrent, commitBuild, sourceHash, stampPaths } from './build-stamp.ts';

describe('build stamp', () => {
  let root: string;
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  /** What `npm run build` leaves: build/ emptied and refilled between `begin` and `commit`. */
  const build = () => {
    beginBuild(root);
    rmSync(path.join(root, 'build'), { recursive: true, force: true });
    write('build/service/main.js', 'built');
    commitBuild(root);
  };

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'build-stamp-'));
    write('package.json', '{}');
    write('app/root.tsx', 'export {}');
    write('server/app.ts', 'export {}');
    write('server/app.test.ts', 'test');
    write('tests/api/a.test.ts', 'test');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is missing until a build records its sources', () => {
    expect(buildIsCurrent(root)).toBe(false);
    build();
    expect(buildIsCurrent(root)).toBe(true);
  });

  it('goes stale when a source changes, appears or goes', () => {
    build();
    write('server/app.ts', 'export const changed = 1;');
    expect(buildIsCurrent(root)).toBe(false);
    build();
    write('shared/new.ts', 'export {}');
    expect(buildIsCurrent(root)).toBe(false);
    build();
    rmSync(path.join(root, 'shared/new.ts'));
    expect(buildIsCurrent(root)).toBe(false);
  });

  it('stays current when only tests, reports or the build itself change', () => {
    build();
    const before = sourceHash(root);
    write('tests/api/a.test.ts', 'changed');
    write('server/app.test.ts', 'changed');
    write('reports/vitest.json', '{}');
    write('build/client/index.html', 'built');
    expect(sourceHash(root)).toBe(before);
    expect(buildIsCurrent(root)).toBe(true);
  });

  it('is not current when the build failed after it began', () => {
    build();
    beginBuild(root);
    rmSync(path.join(root, 'build'), { recursive: true, force: true });
    expect(buildIsCurrent(root)).toBe(false);
    write('build/service/main.js', 'half');
    expect(buildIsCurrent(root)).toBe(false);
    expect(stampPaths(root).stamp).toBe(path.join(root, 'build', '.source-hash'));
  });
});
