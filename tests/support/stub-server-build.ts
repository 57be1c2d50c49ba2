import { createContext, type ServerBuild } from 'react-router';
import type { SiteRequestContext } from '#app/context.ts';

type EntryModule = ServerBuild['entry']['module'];
type AssetRoute = ServerBuild['assets']['routes'][string];

function assetRoute(id: string, path: string | undefined, parentId?: string): AssetRoute {
  return {
    id,
    path,
    parentId,
    module: `/assets/${id}.js`,
    hasAction: false,
    hasLoader: false,
    hasClientAction: false,
    hasClientLoader: false,
    hasClientMiddleware: false,
    hasErrorBoundary: false,
    clientActionModule: undefined,
    clientLoaderModule: undefined,
    clientMiddlewareModule: undefined,
    hydrateFallbackModule: undefined,
  };
}

/**
 * A React Router server build of two pages (`/` and `/imprint`) whose documents are a few lines of
 * HTML: enough for the app's page store in an in-process test, without building the site.
 * Unknown paths get the 404 document, as with the real build.
 */
export function stubServerBuild(): ServerBuild {
  const module: EntryModule & { siteContext: unknown; canonicalPageState: unknown } = {
    default: (request, status, headers) => {
      headers.set('Content-Type', 'text/html; charset=utf-8');
      const { pathname } = new URL(request.url);
      const html = `<!doctype html><html lang="en"><head><title>${status}</title></head><body><h1>${pathname}</h1><p>${'Stub page. '.repeat(50)}</p></body></html>`;
      return new Response(html, { status, headers });
    },
    // Unknown paths are expected here; React Router would log each one.
    handleError: () => undefined,
    siteContext: createContext<SiteRequestContext>(),
    // The stub's pages read no page state: every query maps to the page itself.
    canonicalPageState: () => '',
  };
  return {
    entry: { module },
    routes: {
      root: { id: 'root', path: '', module: { default: () => null } },
      imprint: {
        id: 'imprint',
        parentId: 'root',
        path: 'imprint',
        module: { default: () => null },
      },
    },
    assets: {
      entry: { module: '/assets/entry.js', imports: [] },
      routes: { root: assetRoute('root', ''), imprint: assetRoute('imprint', 'imprint', 'root') },
      url: '/assets/manifest.js',
      version: 'stub',
    },
    publicPath: '/',
    assetsBuildDirectory: 'build/client/assets',
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: 'lazy', manifestPath: '/__manifest' },
  };
}
