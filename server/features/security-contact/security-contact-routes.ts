import { Hono } from 'hono';
import type { FeaturePorts } from '#server/features/feature-ports.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { securityTxt } from './security-txt.ts';

export const SECURITY_TXT_PATH = '/.well-known/security.txt';

/** `GET /.well-known/security.txt` (and the legacy `/security.txt`, RFC 9116 §3). */
export function securityContactRoutes(deps: FeaturePorts): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get(SECURITY_TXT_PATH, (c) => {
    c.header('Cache-Control', 'public, max-age=86400');
    return c.text(securityTxt(deps.env.PUBLIC_BASE_URL, deps.env.SECURITY_TXT_EXPIRES));
  });
  app.get('/security.txt', (c) => c.redirect(SECURITY_TXT_PATH, 301));
  return app;
}
