import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildService, isPackageImport, sourceRelativeImportMeta } from './build-server.ts';

describe('isPackageImport', () => {
  it('leaves packages and builtins to node_modules, bundles our own modules', () => {
    expect(isPackageImport('hono')).toBe(true);
    expect(isPackageImport('@hono/node-server/conninfo')).toBe(true);
    expect(isPackageImport('node:fs')).toBe(true);
    expect(isPackageImport('./app.ts')).toBe(false);
    expect(isPackageImport('#shared/pricing/index.ts')).toBe(false);
    expect(isPackageImport('/work/main/server/app.ts')).toBe(false);
  });
});

describe('sourceRelativeImportMeta', () => {
  it('points import.meta at the source file, relative to the bundle', () => {
    const code =
      "const dir = new URL('./migrations/', import.meta.url); const d = import.meta.dirname;";
    const rewritten = sourceRelativeImportMeta(
      code,
      '/repo/server/platform/db/migrate.ts',
      '/repo/build/service',
    );
    const bundleUrl = 'file:///repo/build/service/server.js';
    const moduleUrl = /new URL\(("[^"]+"), import\.meta\.url\)\.href/.exec(rewritten)?.[1];
    expect(moduleUrl).toBe('"../../server/platform/db/migrate.ts"');
    expect(new URL('./migrations/', new URL(JSON.parse(moduleUrl ?? '""'), bundleUrl)).href).toBe(
      'file:///repo/server/platform/db/migrations/',
    );
    const dirExpression = rewritten.slice(
      rewritten.indexOf('const d = ') + 'const d = '.length,
      -1,
    );
    const evaluate = new Function(
      'url',
      `const importMeta = { url }; return ${dirExpression.replaceAll('import.meta', 'importMeta')};`,
    );
    expect(evaluate(bundleUrl)).toBe('/repo/server/platform/db');
  });
});

describe('the bundle', () => {
  let outDir: string;
  beforeAll(async () => {
    outDir = mkdtempSync(path.join(tmpdir(), 'orgsmith-service-'));
    await buildService(outDir);
  }, 60_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('sets NODE_ENV before any package loads, then imports the server', () => {
    const main = readFileSync(path.join(outDir, 'main.js'), 'utf8');
    expect(main).not.toMatch(/^import /m);
    expect(main.indexOf("process.env.NODE_ENV ??= 'production'")).toBeLessThan(
      main.indexOf("await import('./server.js')"),
    );
  });

  it('writes the admin command line as an entry of its own, leaving NODE_ENV as it finds it', () => {
    const admin = readFileSync(path.join(outDir, 'admin.js'), 'utf8');
    expect(admin).toContain('process.argv.slice(2)');
    expect(admin).not.toContain("process.env.NODE_ENV ??= 'production'");
  });

  it('imports the packages that only some requests need on first use, never at start', () => {
    const server = readFileSync(path.join(outDir, 'server.js'), 'utf8');
    const staticImports = [...server.matchAll(/^import\b[^;]*?"([^"]+)";$/gms)].map((m) => m[1]);
    expect(staticImports).toContain('hono');
    for (const lazy of [
      'stripe',
      'pdfkit',
      'nodemailer',
      '@scalar/hono-api-reference',
      '@electric-sql/pglite',
    ]) {
      expect(staticImports.filter((name) => name?.startsWith(lazy))).toEqual([]);
    }
  });

  it('keeps every file next to the entry (the import.meta rewrite is relative to it)', () => {
    for (const entry of readdirSync(outDir, { withFileTypes: true })) {
      expect(entry.isFile()).toBe(true);
    }
  });

  it('finds the files that sit next to the sources: migrations and fonts', () => {
    const all = readdirSync(outDir)
      .map((file) => readFileSync(path.join(outDir, file), 'utf8'))
      .join('\n');
    for (const match of all.matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)) {
      const target = new URL(match[1] ?? '', `file://${outDir}/main.js`);
      expect(readdirSync(path.dirname(target.pathname))).toContain(path.basename(target.pathname));
    }
  });
});
