import {
  errorBodySchema,
  invalidRequestErrorSchema,
  payloadTooLargeErrorSchema,
  rateLimitHeadersDoc,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import { defineApiDocs } from '#server/platform/api-doc/api-doc.ts';
import {
  accessTokenInfoSchema,
  accessTokenListSchema,
  createAccessTokenRequestSchema,
  createdAccessTokenSchema,
  listAccessTokensRequestSchema,
  revokeAccessTokenRequestSchema,
} from './access-token-contract.ts';
import { ACCESS_TOKENS_PATH } from './access-token-routes.ts';
import { accessTokenExamples } from '#server/licensing/cli-flow-examples.ts';

const commonErrors = {
  400: { description: 'Malformed JSON or fields.', schema: invalidRequestErrorSchema },
  413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
  415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
  429: {
    description: 'Too many requests.',
    schema: tooManyRequestsErrorSchema,
    headers: rateLimitHeadersDoc,
  },
};

export const accessTokenApiDocs = defineApiDocs([
  {
    method: 'post',
    path: ACCESS_TOKENS_PATH,
    operationId: 'createAccessToken',
    tag: 'Access tokens',
    summary: 'Create an access token for a licence (shown once)',
    description:
      'For CI: the CLI accepts the token instead of the licence key (`Authorization: Bearer` on the validation endpoint). Only a keyed hash is stored, so the token appears in this answer only.',
    request: {
      body: createAccessTokenRequestSchema,
      bodyExamples: accessTokenExamples.createRequest,
    },
    responses: {
      201: {
        description: 'The new token.',
        schema: createdAccessTokenSchema,
        examples: accessTokenExamples.created,
      },
      ...commonErrors,
      404: { description: 'LicenseKeyUnknown: no licence has this key.', schema: errorBodySchema },
      409: {
        description:
          'LicenseInactive (the licence is expired, deactivated or pending deletion) or AccessTokenLimitReached.',
        schema: errorBodySchema,
      },
    },
  },
  {
    method: 'post',
    path: `${ACCESS_TOKENS_PATH}/list`,
    operationId: 'listAccessTokens',
    tag: 'Access tokens',
    summary: 'List the access tokens of a licence',
    description: 'A POST so that the licence key never appears in a URL or an access log.',
    request: {
      body: listAccessTokensRequestSchema,
      bodyExamples: accessTokenExamples.listRequest,
    },
    responses: {
      200: {
        description: 'Tokens, newest first, revoked ones included.',
        schema: accessTokenListSchema,
        examples: accessTokenExamples.list,
      },
      ...commonErrors,
      404: { description: 'LicenseKeyUnknown.', schema: errorBodySchema },
    },
  },
  {
    method: 'post',
    path: `${ACCESS_TOKENS_PATH}/revoke`,
    operationId: 'revokeAccessToken',
    tag: 'Access tokens',
    summary: 'Revoke an access token',
    description:
      'Send the token itself, or the licence key and the token id. Validations with a revoked token answer NOT_FOUND. Revoking twice is not an error.',
    request: {
      body: revokeAccessTokenRequestSchema,
      bodyExamples: accessTokenExamples.revokeRequest,
    },
    responses: {
      200: {
        description: 'The revoked token.',
        schema: accessTokenInfoSchema,
        examples: accessTokenExamples.revoked,
      },
      ...commonErrors,
      404: { description: 'LicenseKeyUnknown or AccessTokenUnknown.', schema: errorBodySchema },
    },
  },
]);
