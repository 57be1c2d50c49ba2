/**
 * First-load JavaScript per page, from the client build: the entry module, the route modules
 * of every route the page matches, and everything they import — exactly the module preloads the
 * server puts in the HTML. Sizes are gzip (level 9, as served). Fails when `/` exceeds its budget.
 *
 *   node bench/bundle-size.ts [--skip-build]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { matchRoutes, type RouteObject } from 'react-router';
import { z } from 'zod';
import { pages } from '../app/pages.ts';
import { buildSite } from './support/server.ts';

/** Budget of spec/issue #2 for the home page. */
const homeBudgetBytes = 125 * 1024;

/** The part of React Router's server build that lists every route's client modules. */
const manifestRoute = z.object({
  id: z.string(),
  parentId: z.string().optional(),
  path: z.string().optional(),
  index: z.boolean().optional(),
  module: z.string(),
  imports: z.array(z.string()).optional(),
});
const serverBuild = z.object({
  assets: z.object({
    entry: z.object({ module: z.string(), imports: z.array(z.string()) }),
    routes: z.record(z.string(), manifestRoute),
  }),
});

if (!process.argv.includes('--skip-build')) buildSite();

const { assets } = serverBuild.parse(await import(path.resolve('build/server/index.js')));
const entryFiles = [assets.entry.module, ...assets.entry.imports];
const routes = Object.values(assets.routes);

/** The manifest's flat list as a route tree, so React Router itself decides what a path matches. */
function toTree(parentId: string | undefined): RouteObject[] {
  return routes
    .filter((route) => route.parentId === parentId)
    .map((route) =>
      route.index
        ? { id: route.id, index: true }
        : { id: route.id, path: route.path, children: toTree(route.id) },
    );
}
const tree = toTree(undefined);
const byId = new Map(routes.map((route) => [route.id, route]));

const gzipSizes = new Map<string, number>();
function gzipSize(file: string): number {
  const known = gzipSizes.get(file);
  if (known !== undefined) return known;
  const size = gzipSync(readFileSync(path.join('build/client', file)), { level: 9 }).length;
  gzipSizes.set(file, size);
  return size;
}

const rows = Object.values(pages).map((page) => {
  const matched = matchRoutes(tree, page.path) ?? [];
  const files = new Set(entryFiles);
  for (const match of matched) {
    const route = match.route.id ? byId.get(match.route.id) : undefined;
    if (!route) continue;
    files.add(route.module);
    for (const file of route.imports ?? []) files.add(file);
  }
  const bytes = [...files].reduce((sum, file) => sum + gzipSize(file), 0);
  return { path: page.path, files: files.size, bytes };
});

console.table(
  rows.map((row) => ({
    page: row.path,
    'JS files': row.files,
    'gzip kB': (row.bytes / 1024).toFixed(1),
  })),
);
const home = rows.find((row) => row.path === '/');
if (!home) throw new Error('no home page in app/pages.ts');
const verdict = home.bytes <= homeBudgetBytes ? 'within' : 'OVER';
console.log(
  `First-load JS of /: ${(home.bytes / 1024).toFixed(1)} kB gzip — ${verdict} the budget of ${homeBudgetBytes / 1024} kB.`,
);
if (home.bytes > homeBudgetBytes) process.exitCode = 1;
