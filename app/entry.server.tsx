import { createReadableStreamFromReadable } from '@react-router/node';
import { renderToPipeableStream } from 'react-dom/server';
import { ServerRouter, type EntryContext, type RouterContextProvider } from 'react-router';
import { siteContext } from './context.ts';
import { hydrateAfterFirstPaint } from './ssr/hydrate-after-paint.ts';

export { siteContext };
// The server keys its stored pages by the page state the app reads (decision 120).
export { canonicalPageState } from './ssr/canonical-page-state.ts';

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
): Promise<Response> | Response {
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  // Every inline script of ours carries it, so the server can tell them from injected ones.
  const { scriptMark: mark, logger } = loadContext.get(siteContext);
  return new Promise((resolve, reject) => {
    let statusCode = responseStatusCode;
    // Wait for the whole document: pages are small, and complete HTML is what crawlers and caches
    // want; the server hashes its inline scripts for the CSP and may cache it (server/features/site/).
    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={mark} />,
      {
        nonce: mark,
        onAllReady() {
          const body = hydrateAfterFirstPaint(mark);
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: statusCode,
            }),
          );
          pipe(body);
        },
        onShellError: reject,
        onError(error) {
          statusCode = 500;
          // The path only: a query may carry a visitor's token.
          logger.error(
            { err: error, path: new URL(request.url).pathname },
            'rendering a page failed',
          );
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}
