import type { z } from 'zod';
import type {
  accessTokenInfoSchema,
  accessTokenListSchema,
  createdAccessTokenSchema,
} from './access-tokens/access-token-contract.ts';
import type { licenceKeySetSchema } from './licence-certificates/licence-certificate-contract.ts';
import type { validationAnswerSchema } from './licence-validation/licence-validation-contract.ts';
import { licenceEntitlements } from './licence-validation/licence-entitlements.ts';

/**
 * Sample values of the CLI's flows for the API reference: validate a licence, verify its
 * certificate with the key set, manage access tokens for CI. Typed by the answers' schemas, and
 * `tests/api/openapi-examples.test.ts` validates each against the served document.
 */
const licenseKey = 'ORGS-7K3P-9XD2-WH5C-S4V8-N1Y6-RAFT-BJ73';
const token = 'orgsmith_at_RXhhbXBsZSB0b2tlbiBvZiB0aGUgQVBJIHJlZmVyZW5';
const orgId = '00D5g000004ABCDEA4';
const tokenId = '3f0e9a52-6c1d-4b7e-9a8f-2d5c7e1b4a60';

/**
 * The credentials the examples use, each of a valid form (key checksum, token length, org id
 * checksum): `tests/api/openapi-examples-run.test.ts` gives a licence exactly these and sends
 * every example request, so a pasted example gets the documented answer (issue 27 item 7).
 */
export const exampleCredentials = {
  licenseKey,
  token,
  tokenId,
  orgId,
  licence: { type: 'Paid', edition: 'Pro', quantity: 10 },
} as const;

const entitlements = licenceEntitlements(exampleCredentials.licence);

const proLicence = {
  id: '9b2d4c1e-5f3a-4e8b-a7c6-0d1e2f3a4b5c',
  ...exampleCredentials.licence,
  ...entitlements,
  orgsInUse: 3,
  expiresAt: '2027-01-15T10:00:00.000Z',
} satisfies NonNullable<z.output<typeof validationAnswerSchema>['license']>;

const validAnswer = {
  valid: true,
  code: 'VALID',
  detail: 'The licence is valid.',
  license: proLicence,
  certificate: {
    payload: {
      version: 1,
      licenceId: proLicence.id,
      ...exampleCredentials.licence,
      ...entitlements,
      orgId,
      productId: 'orgsmith-cli',
      issuedAt: '2026-01-15T10:00:00.000Z',
      validUntil: '2026-02-14T10:00:00.000Z',
    },
    signature: 'kQ'.repeat(43),
    keyId: 'lc-2026-01',
  },
} satisfies z.output<typeof validationAnswerSchema>;

/** Without `orgId`: the licence's state, but no certificate that could stand for an org. */
const noOrgAnswer = {
  valid: true,
  code: 'VALID',
  detail:
    'The licence is valid. Send the orgId of the org you work on to receive a certificate for offline use.',
  license: proLicence,
} satisfies z.output<typeof validationAnswerSchema>;

const expiredAnswer = {
  valid: false,
  code: 'EXPIRED',
  detail: 'The licence expired on 2025-12-31.',
  license: { ...proLicence, expiresAt: '2025-12-31T23:59:59.000Z' },
} satisfies z.output<typeof validationAnswerSchema>;

export const validateExamples = {
  request: {
    licenceKey: {
      summary: 'With the licence key (orgsmith licence validate)',
      value: { licenseKey, productId: 'orgsmith-cli', orgId },
    },
    accessToken: {
      summary: 'In CI: the access token as `Authorization: Bearer`, no key in the body',
      value: { productId: 'orgsmith-cli', orgId },
    },
  },
  answer: {
    valid: {
      summary: 'Valid, with its certificate for the org and product named (and no other)',
      value: validAnswer,
    },
    validWithoutOrg: {
      summary: 'Valid, but no orgId was sent: no certificate',
      value: noOrgAnswer,
    },
    expired: { summary: 'Not valid: expired', value: expiredAnswer },
  },
};

export const keySetExample = {
  keySet: {
    summary:
      'The key that verifies the certificate above (kid = keyId); then check its orgId and productId',
    value: {
      keys: [
        {
          kty: 'OKP',
          crv: 'Ed25519',
          x: 'l2v3Yb1XJkP0wQm7sT9nA4cR6dE8fG0hI2jK4lM6nO8',
          kid: 'lc-2026-01',
          alg: 'EdDSA',
          use: 'sig',
        },
      ],
    } satisfies z.output<typeof licenceKeySetSchema>,
  },
};

const tokenInfo = {
  id: tokenId,
  name: 'GitHub Actions',
  hint: token.slice(-4),
  createdVia: 'self-service',
  createdAt: '2026-01-15T10:00:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
} satisfies z.output<typeof accessTokenInfoSchema>;

export const accessTokenExamples = {
  createRequest: {
    ci: { summary: 'A token for CI', value: { licenseKey, name: 'GitHub Actions' } },
  },
  created: {
    ci: {
      summary: 'Shown once: store it as a CI secret',
      value: { ...tokenInfo, token } satisfies z.output<typeof createdAccessTokenSchema>,
    },
  },
  listRequest: { byKey: { summary: 'The tokens of a licence', value: { licenseKey } } },
  list: {
    one: {
      summary: 'One token, used today',
      value: {
        tokens: [{ ...tokenInfo, lastUsedAt: '2026-01-15T10:00:00.000Z' }],
      } satisfies z.output<typeof accessTokenListSchema>,
    },
  },
  revokeRequest: {
    byToken: { summary: 'With the token itself', value: { token } },
    byId: {
      summary: 'With the licence key and the token id',
      value: { licenseKey, id: tokenInfo.id },
    },
  },
  revoked: {
    ci: {
      summary: 'The revoked token',
      value: { ...tokenInfo, revokedAt: '2026-01-16T08:30:00.000Z' } satisfies z.output<
        typeof accessTokenInfoSchema
      >,
    },
  },
};

/** Releasing an org after a sandbox refresh (decision 228). */
export const releaseOrgExamples = {
  request: {
    licenceKey: {
      summary: 'With the licence key',
      value: { licenseKey, orgId },
    },
    accessToken: {
      summary: 'With an access token (sent as Authorization: Bearer)',
      value: { orgId },
    },
  },
  released: {
    released: {
      summary: 'Released; two more releases this month',
      value: {
        orgId,
        firstSeenAt: '2026-01-10T09:12:00.000Z',
        lastSeenAt: '2026-01-15T10:00:00.000Z',
        releasesLeft: 2,
        releasesResetAt: null,
      },
    },
  },
};
