import { Hono } from 'hono';
import type { LicensingPorts } from '#server/licensing/licensing-ports.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import {
  unexpectedQueryError,
  invalidRequestErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import { createKeySetReader } from './key-set.ts';
import { licenceKeySetSchema } from './licence-certificate-contract.ts';
import { keySetExample } from '#server/licensing/cli-flow-examples.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';

export const LICENCE_KEY_SET_PATH = '/account/v1/.well-known/jwks.json';

const getLicenceKeySetRoute = defineRoute({
  method: 'get',
  path: LICENCE_KEY_SET_PATH,
  auth: 'public',
  operationId: 'getLicenceKeySet',
  tag: 'Licence certificates',
  summary: 'Public keys that verify licence certificates (JWK set)',
  description:
    'Every valid licence validation that names an `orgId` carries a certificate signed with Ed25519 for that org and product. Take the key whose `kid` equals the certificate `keyId`, verify the signature over the canonical JSON of the payload, then accept it only if its `orgId` and `productId` are the org and product you work on (docs/licence-certificates.md). The set holds the signing key and every retired key for 31 days after it last signed, so certificates stay verifiable across a key rotation; fetch the set again when a certificate names a key you do not have.',
  responses: {
    200: { description: 'The key set.', schema: licenceKeySetSchema, examples: keySetExample },
    400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
  },
});

/** Publishes the public key(s) that verify licence certificates. */
export const licenceCertificateRoutes = defineRoutes(
  [getLicenceKeySetRoute],
  (deps: LicensingPorts) => {
    const app = new Hono<AppEnv>();
    const readKeySet = createKeySetReader({
      db: deps.database.db,
      activeKey: deps.licenceSigningKey,
      clock: deps.clock,
    });
    getLicenceKeySetRoute.handle(app, async (c) => {
      const queryError = unexpectedQueryError(c.req.query());
      if (queryError) return c.json(queryError, 400);
      // Verifiers may cache the set for an hour and fetch it again when a certificate names a key
      // they do not have; retired keys stay while their certificates can be valid (decision 087).
      c.header('Cache-Control', 'public, max-age=3600');
      return c.json(await readKeySet());
    });
    return app;
  },
);
