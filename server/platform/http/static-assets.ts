import type { MiddlewareHandler } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import type { AppEnv } from './types.ts';

/**
 * Serves the client build. Hashed files under /assets/ are immutable for a year; other public
 * files (favicon, PDFs) are revalidated hourly. Brotli and gzip siblings are written at build time.
 */
export function staticAssets(root: string): MiddlewareHandler<AppEnv> {
  return serveStatic<AppEnv>({
    root,
    precompressed: true,
    onFound: (path, c) => {
      const immutable = path.includes('/assets/');
      c.header(
        'Cache-Control',
        immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      );
    },
  });
}
