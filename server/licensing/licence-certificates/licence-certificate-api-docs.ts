import { defineApiDocs } from '#server/platform/api-doc/api-doc.ts';
import { invalidRequestErrorSchema } from '#server/platform/api-doc/common-errors.ts';
import { licenceKeySetSchema } from './licence-certificate-contract.ts';
import { LICENCE_KEY_SET_PATH } from './licence-certificate-routes.ts';
import { keySetExample } from '#server/licensing/cli-flow-examples.ts';

export const licenceCertificateApiDocs = defineApiDocs([
  {
    method: 'get',
    path: LICENCE_KEY_SET_PATH,
    operationId: 'getLicenceKeySet',
    tag: 'Licence certificates',
    summary: 'Public keys that verify licence certificates (JWK set)',
    description:
      'Every valid licence validation that names an `orgId` carries a certificate signed with Ed25519 for that org and product. Take the key whose `kid` equals the certificate `keyId`, verify the signature over the canonical JSON of the payload, then accept it only if its `orgId` and `productId` are the org and product you work on (docs/licence-certificates.md). The set holds the signing key and every retired key for 31 days after it last signed, so certificates stay verifiable across a key rotation; fetch the set again when a certificate names a key you do not have.',
    responses: {
      200: { description: 'The key set.', schema: licenceKeySetSchema, examples: keySetExample },
      400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
    },
  },
]);
