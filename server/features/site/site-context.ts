import type { RouterContext, ServerBuild } from 'react-router';
import type { SiteRequestContext } from '#app/context.ts';
import type { CanonicalPageState } from './page-address.ts';

function isRouterContext(value: unknown): value is RouterContext<SiteRequestContext> {
  return typeof value === 'object' && value !== null && 'defaultValue' in value;
}

/**
 * The context key must be the very object the server build uses, so it is taken from the build's
 * server entry (app/entry.server.tsx re-exports it) rather than imported here.
 */
export function siteContextOf(build: ServerBuild): RouterContext<SiteRequestContext> {
  const exported: unknown = Reflect.get(build.entry.module, 'siteContext');
  if (!isRouterContext(exported)) {
    throw new Error('The server build does not export siteContext from app/entry.server.tsx');
  }
  return exported;
}

function isFunction(value: unknown): value is (...args: string[]) => unknown {
  return typeof value === 'function';
}

/**
 * The app's reading of a URL's page state (app/ssr/canonical-page-state.ts), from the build like
 * the context key: the production image holds the build, not the app's sources.
 */
export function canonicalPageStateOf(build: ServerBuild): CanonicalPageState {
  const exported: unknown = Reflect.get(build.entry.module, 'canonicalPageState');
  if (!isFunction(exported)) {
    throw new Error(
      'The server build does not export canonicalPageState from app/entry.server.tsx',
    );
  }
  return (routePath, query) => {
    const state = exported(routePath, query);
    if (typeof state !== 'string') throw new Error('canonicalPageState returned no query string');
    return state;
  };
}
