import type { RouterContext, ServerBuild } from 'react-router';
import type { SiteRequestContext } from '#app/context.ts';

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
