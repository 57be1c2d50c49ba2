import { matchRoutes, type RouteObject } from 'react-router';

/** Where a page is stored, and the URL it is rendered from. */
export interface PageAddress {
  /** The route's own path (`/pricing`, however the request spelt it) and its canonical page state. */
  key: string;
  /**
   * `route`: a route's page without page state, one per route, kept for good; `variant`: a page
   * with page state (a quote, an open dialog), kept within the store's byte budget;
   * `not-found`: every path no route serves, one page for them all (decision 120).
   */
  kind: 'route' | 'variant' | 'not-found';
}

/** Where a request's page lives, or undefined when it is never shared (route data, manifests). */
export type ResolvePage = (path: string, query: string) => PageAddress | undefined;

/** The one path the shared 404 page is rendered from: no route serves it. */
export const NOT_FOUND_PATH = '/404';

/** A route of the build's flat manifest (`ServerBuild['routes']`), as far as matching goes. */
export interface ManifestRoute {
  id: string;
  parentId?: string | undefined;
  path?: string | undefined;
  index?: boolean | undefined;
  caseSensitive?: boolean | undefined;
}

/** The app's own reading of a URL's page state (`canonicalPageState` of app/ssr/). */
export type CanonicalPageState = (routePath: string, query: string) => string;

const isParameter = (segment: string) =>
  segment.startsWith(':') || segment === '*' || segment.endsWith('?');

function treeOf(routes: readonly ManifestRoute[], parentId: string | undefined): RouteObject[] {
  return routes
    .filter((route) => route.parentId === parentId)
    .map((route): RouteObject => {
      const common = { id: route.id, path: route.path, caseSensitive: route.caseSensitive };
      return route.index
        ? { ...common, index: true }
        : { ...common, children: treeOf(routes, route.id) };
    });
}

/** The path a route's page answers on: its ancestors' paths and its own, joined. */
function fullPathOf(route: ManifestRoute, byId: ReadonlyMap<string, ManifestRoute>): string[] {
  const segments: string[] = [];
  for (let at: ManifestRoute | undefined = route; at; at = byId.get(at.parentId ?? '')) {
    segments.unshift(...(at.path ?? '').split('/').filter(Boolean));
  }
  return segments;
}

/**
 * The routes without parameters by the spelling React Router accepts for them: as written when
 * case-sensitive, else lower-cased. Whether any other route has parameters (beyond the catch-all).
 */
function staticRoutesOf(routes: readonly ManifestRoute[]) {
  const byId = new Map(routes.map((route) => [route.id, route]));
  const parents = new Set(routes.flatMap((route) => (route.parentId ? [route.parentId] : [])));
  const exact = new Map<string, string>();
  const folded = new Map<string, string>();
  let withParameters = false;
  for (const route of routes) {
    // Layout routes render around pages, never on their own.
    if (parents.has(route.id) && !route.index) continue;
    if (route.path === '*' && byId.get(route.parentId ?? '')?.path === '') continue;
    const segments = fullPathOf(route, byId);
    if (segments.some(isParameter)) {
      withParameters = true;
      continue;
    }
    const routePath = `/${segments.join('/')}`;
    if (route.caseSensitive) exact.set(routePath, routePath);
    else folded.set(routePath.toLowerCase(), routePath);
  }
  return { exact, folded, withParameters };
}

/**
 * Resolves requests to stored pages the way React Router matches them (case-insensitive, trailing
 * slashes or not): the key is the route's own path plus the page state the app reads, so other
 * spellings, campaign tags and invalid values all land on a page that exists once, and every path
 * that only the catch-all route (`*`) matches lands on the one 404 page. Routes without
 * parameters are found in a map (this runs for every request the store does not hold as asked);
 * only routes with parameters go through React Router's `matchRoutes`.
 */
export function createPageResolver(
  manifest: Readonly<Record<string, ManifestRoute | undefined>>,
  pageState: CanonicalPageState,
): ResolvePage {
  const routes = Object.values(manifest).flatMap((route) => (route ? [route] : []));
  const { exact, folded, withParameters } = staticRoutesOf(routes);
  const tree = treeOf(routes, undefined);

  /** The path a route with parameters answers on, as asked; undefined for the catch-all. */
  function withParametersPath(path: string): string | undefined {
    const leaf = matchRoutes(tree, path)?.at(-1)?.route;
    return !leaf || leaf.path === '*' ? undefined : path;
  }

  return (path, query) => {
    if (path.endsWith('.data') || path.startsWith('/__manifest')) return undefined;
    // React Router accepts any number of trailing slashes.
    const asked = path.replace(/(?<=.)\/+$/, '');
    const staticPath = exact.get(asked) ?? folded.get(asked.toLowerCase());
    const routePath = staticPath ?? (withParameters ? withParametersPath(path) : undefined);
    if (routePath === undefined) return { key: NOT_FOUND_PATH, kind: 'not-found' };
    const state = pageState(routePath, query);
    if (state) return { key: `${routePath}?${state}`, kind: 'variant' };
    return { key: routePath, kind: staticPath ? 'route' : 'variant' };
  };
}
