/**
 * Bundles the account service (`server/main.ts` and everything it imports from `server/`,
 * `shared/` and `app/`) into plain JavaScript under `build/service/`, packages left as imports.
 * The production start runs `build/service/main.js` (decision 147): no TypeScript stripping at
 * run time (Node's stripper is WebAssembly that stays resident, ~15 MB) and one module instead of
 * ~800. `node server/main.ts` keeps working for development and tests. The admin command line
 * (`server/admin/cli.ts`) is bundled too, as `build/service/admin.js`.
 *
 *   node scripts/build-server.ts        (part of `npm run build`)
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { rolldown, type Plugin } from 'rolldown';

const defaultOutDir = path.resolve('build/service');

/** A bare package name or a node builtin: loaded from node_modules at run time, not bundled. */
export function isPackageImport(id: string): boolean {
  return !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('#') && !id.startsWith('\0');
}

/**
 * `import.meta.url` and `import.meta.dirname` of a source module, rewritten relative to the bundle,
 * so files found next to the source (migrations, fonts) are found from `build/service/` too.
 */
export function sourceRelativeImportMeta(code: string, moduleFile: string, bundleDir: string) {
  const relative = (to: string) => path.relative(bundleDir, to).split(path.sep).join('/');
  const moduleUrl = `new URL(${JSON.stringify(relative(moduleFile))}, import.meta.url).href`;
  const moduleDir = `decodeURIComponent(new URL(${JSON.stringify(`${relative(path.dirname(moduleFile))}/`)}, import.meta.url).pathname).slice(0, -1)`;
  return code.replaceAll('import.meta.url', moduleUrl).replaceAll('import.meta.dirname', moduleDir);
}

function importMetaPlugin(bundleDir: string): Plugin {
  return {
    name: 'source-relative-import-meta',
    transform(code, id) {
      if (!code.includes('import.meta.url') && !code.includes('import.meta.dirname')) return null;
      return sourceRelativeImportMeta(code, id, bundleDir);
    },
  };
}

/** Writes the bundle and its entry `main.js` into `outDir` (emptied first). */
export async function buildService(outDir = defaultOutDir): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  const bundle = await rolldown({
    // The operator command line beside the server: the same chunks, started without loading and
    // stripping some 600 TypeScript files (`node build/service/admin.js <command>`, decision 202).
    input: { server: 'server/main.ts', admin: 'server/admin/cli.ts' },
    platform: 'node',
    external: isPackageImport,
    plugins: [importMetaPlugin(outDir)],
  });
  await bundle.write({
    dir: outDir,
    format: 'esm',
    entryFileNames: '[name].js',
    // Flat: every file sits in `outDir`, which the `import.meta` rewrite is relative to.
    chunkFileNames: '[name]-[hash].js',
  });
  await bundle.close();
  // Packages are imported before a module's own code runs, so NODE_ENV must be set by a module
  // that runs first and only then imports the bundle (React picks its build when it loads).
  writeFileSync(
    path.join(outDir, 'main.js'),
    [
      '// The production entry (scripts/build-server.ts): NODE_ENV before any package loads.',
      "process.env.NODE_ENV ??= 'production';",
      "await import('./server.js');",
      '',
    ].join('\n'),
  );
}

if (import.meta.main) {
  await buildService();
  console.log(`build-server: wrote ${path.relative(process.cwd(), defaultOutDir)}/main.js`);
}
