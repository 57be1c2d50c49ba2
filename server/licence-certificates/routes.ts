import { Hono } from 'hono';
import type { AppDeps } from '../deps.ts';
import type { AppEnv } from '../http/types.ts';
import { defineApiDocs } from '../openapi/api-doc.ts';
import { invalidRequestErrorSchema, unexpectedQueryError } from '../openapi/common-errors.ts';
import { licenceKeySetSchema } from './certificate-contract.ts';
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

export const licenceCertificateApiDocs = defineApiDocs([
  {
    method: 'get',
    path: LICENCE_KEY_SET_PATH,
    operationId: 'getLicenceKeySet',
    tag: 'Licence certificates',
    summary: 'Public keys that verify licence certificates (JWK set)',
    description:
      'Every valid licence validation carries a certificate signed with Ed25519. Take the key whose `kid` equals the certificate `keyId` and verify the signature over the canonical JSON of the payload (docs/licence-certificates.md). The set holds the signing key and every retired key for 31 days after it last signed, so certificates stay verifiable across a key rotation; fetch the set again when a certificate names a key you do not have.',
    responses: {
      200: { description: 'The key set.', schema: licenceKeySetSchema },
      400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
    },
  },
]);
