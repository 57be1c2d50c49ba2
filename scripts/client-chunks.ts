import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * How the browser bundle is cut into files (decision 080). React Router makes every route module
 * an entry, so Rolldown splits out each module that two routes share: many small files, each with
 * its own import and export glue and gzip framing. Two groups instead, both loaded by every page:
 *
 * - `framework`: React, ReactDOM, its scheduler and React Router;
 * - `shell`: the site's modules that the root route imports statically (header, footer, dialog
 *   host, analytics, page list…). Found from the module graph, so it follows the code.
 */
const frameworkModule = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/;

export function clientChunks(rootModule = path.resolve('app/root.tsx')) {
  const imports = new Map<string, readonly string[]>();
  let shell: Set<string> | undefined;

  /** Every module the root route reaches through static imports. */
  function inShell(id: string): boolean {
    if (!shell) {
      shell = new Set();
      const pending = [...(imports.get(rootModule) ?? [])];
      for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
        if (shell.has(next)) continue;
        shell.add(next);
        pending.push(...(imports.get(next) ?? []));
      }
    }
    return shell.has(id);
  }

  const plugin: Plugin = {
    name: 'orgsmith:client-module-graph',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    buildStart() {
      imports.clear();
      shell = undefined;
    },
    moduleParsed(info) {
      imports.set(info.id, info.importedIds);
    },
  };

  const codeSplitting = {
    groups: [
      { name: 'framework', test: frameworkModule, priority: 2 },
      { name: 'shell', test: (id: string) => inShell(id), priority: 1 },
    ],
  };

  return { plugin, codeSplitting };
}
