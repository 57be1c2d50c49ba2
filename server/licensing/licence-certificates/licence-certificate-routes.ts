import { Hono } from 'hono';
import type { AppDeps } from '#server/deps.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { unexpectedQueryError } from '#server/platform/api-doc/common-errors.ts';
import { createKeySetReader } from './key-set.ts';

export const LICENCE_KEY_SET_PATH = '/account/v1/.well-known/jwks.json';

/** Publishes the public key(s) that verify licence certificates. */
export function licenceCertificateRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const readKeySet = createKeySetReader({
    db: deps.database.db,
    activeKey: deps.licenceSigningKey,
    clock: deps.clock,
  });
  app.get(LICENCE_KEY_SET_PATH, async (c) => {
    const queryError = unexpectedQueryError(c.req.query());
    if (queryError) return c.json(queryError, 400);
    // Verifiers may cache the set for an hour and fetch it again when a certificate names a key
    // they do not have; retired keys stay while their certificates can be valid (decision 087).
    c.header('Cache-Control', 'public, max-age=3600');
    return c.json(await readKeySet());
  });
  return app;
}
