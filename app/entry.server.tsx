import { createReadableStreamFromReadable } from '@react-router/node';
import { renderToPipeableStream } from 'react-dom/server';
import { ServerRouter, type EntryContext } from 'react-router';
import { siteContext } from './context.ts';
import { hydrateAfterFirstPaint } from './ssr/hydrate-after-paint.ts';

export { siteContext };

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
): Promise<Response> | Response {
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  return new Promise((resolve, reject) => {
    let statusCode = responseStatusCode;
    // Wait for the whole document: pages are small, and complete HTML is what crawlers and caches
    // want; the server hashes its inline scripts for the CSP and may cache it (server/site/).
    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} />,
      {
        onAllReady() {
          const body = hydrateAfterFirstPaint();
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
          console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}
