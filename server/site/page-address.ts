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

/**
 * Resolves requests to stored pages the way React Router matches them (case-insensitive, trailing
 * slash or not): the key is the route's own path plus the page state the app reads, so other
 * spellings, campaign tags and invalid values all land on a page that exists once, and every path
 * that only the catch-all route (`*`) matches lands on the one 404 page.
 */
export function createPageResolver(
  manifest: Readonly<Record<string, ManifestRoute | undefined>>,
  pageState: CanonicalPageState,
): ResolvePage {
  const routes = Object.values(manifest).flatMap((route) => (route ? [route] : []));
  const tree = treeOf(routes, undefined);
  return (path, query) => {
    if (path.endsWith('.data') || path.startsWith('/__manifest')) return undefined;
    const matches = matchRoutes(tree, path);
    const leaf = matches?.at(-1)?.route;
    if (!matches || !leaf || leaf.path === '*') return { key: NOT_FOUND_PATH, kind: 'not-found' };
    const segments = matches
      .flatMap((match) => (match.route.path ?? '').split('/'))
      .filter(Boolean);
    // A route with parameters has no one spelling: its pages are keyed by the path as asked.
    const dynamic = segments.some(
      (segment) => segment.startsWith(':') || segment === '*' || segment.endsWith('?'),
    );
    const routePath = dynamic ? path : `/${segments.join('/')}`;
    const state = pageState(routePath, query);
    return state
      ? { key: `${routePath}?${state}`, kind: 'variant' }
      : { key: routePath, kind: dynamic ? 'variant' : 'route' };
  };
}
