import { readFileSync } from 'node:fs';
import { createRequire, registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';
import type TypeScript from 'typescript';

/**
 * The local provider's pages are JSX (`.tsx`, decision 163), loaded on the first request that
 * shows one: importing the app needs no JSX transform (the lazy-imports probe loads it with plain
 * Node). The production bundle (scripts/build-server.ts) has them compiled. Run from source
 * (`node server/main.ts`, `npm run dev`), Node strips types from `.ts` but refuses `.tsx`: a load
 * hook compiles those with TypeScript, a devDependency that source runs have.
 */
export const localPages = {
  checkout: () => fromSource(() => import('./checkout-page.tsx')),
  portal: () => fromSource(() => import('./portal-page.tsx')),
  invoice: () => fromSource(() => import('./invoice-page.tsx')),
  message: () => fromSource(() => import('./message-page.tsx')),
};

let hookRegistered = false;

async function fromSource<T>(load: () => Promise<T>): Promise<T> {
  // In the bundle this module is `…/build/service/*.js` and no `.tsx` file is ever loaded.
  if (!hookRegistered && import.meta.filename.endsWith('.ts')) {
    registerHooks({ load: compileTsx });
    hookRegistered = true;
  }
  return load();
}

let typescript: typeof TypeScript | undefined;

const compileTsx: Parameters<typeof registerHooks>[0]['load'] = (url, context, nextLoad) => {
  if (!url.startsWith('file:') || !url.endsWith('.tsx')) return nextLoad(url, context);
  typescript ??= createRequire(import.meta.url)('typescript') as typeof TypeScript;
  const ts = typescript;
  const fileName = fileURLToPath(url);
  const { outputText } = ts.transpileModule(readFileSync(fileName, 'utf8'), {
    fileName,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2024,
      jsx: ts.JsxEmit.ReactJSX,
      verbatimModuleSyntax: true,
    },
  });
  return { format: 'module', source: outputText, shortCircuit: true };
};
