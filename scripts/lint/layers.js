/**
 * The server's layers, as a lint rule (docs/decisions/167-server-layers.md): a lower layer imports
 * nothing above it.
 *
 *   platform < licensing < billing < features < composition (everything else under server/)
 *
 * `server/<layer>/…` names the layer; files at the root of `server/` and its other folders (admin,
 * openapi, metrics, health, backup, app.ts, deps.ts, env.ts, runtime.ts, main.ts) are composition.
 * Tests (`*.test.ts`) may import across layers.
 */
import path from 'node:path';

export const layerOrder = ['platform', 'licensing', 'billing', 'features', 'composition'];

/** The layer of a repository-relative path under server/, or null outside server/. */
export function layerOf(file) {
  if (!file.startsWith('server/')) return null;
  const top = file.split('/')[1];
  return layerOrder.includes(top) && top !== 'composition' ? top : 'composition';
}

/** The repository-relative target of `specifier` imported from `file`, or null if not in server/. */
export function serverTarget(file, specifier) {
  if (specifier.startsWith('#server/')) return `server/${specifier.slice('#server/'.length)}`;
  if (!specifier.startsWith('.')) return null;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
  return target.startsWith('server/') ? target : null;
}

/** The message for an upward import, or null when `file` may import `specifier`. */
export function upwardImport(file, specifier) {
  const from = layerOf(file);
  const target = serverTarget(file, specifier);
  if (!from || !target) return null;
  const to = layerOf(target);
  if (layerOrder.indexOf(to) <= layerOrder.indexOf(from)) return null;
  return `${from} is below ${to}: a lower layer imports nothing above it (${layerOrder.join(' < ')}).`;
}

const noUpwardImport = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = path.relative(context.cwd, context.filename).split(path.sep).join('/');
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string') return;
      const message = upwardImport(file, specifier);
      if (message) context.report({ node: node.source, message });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export const layerRules = [
  {
    files: ['server/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    plugins: { layers: { rules: { 'no-upward-import': noUpwardImport } } },
    rules: { 'layers/no-upward-import': 'error' },
  },
];
