import { z } from 'zod';
import { defineApiDocs } from '#server/platform/api-doc/api-doc.ts';
import {
  invalidRequestErrorSchema,
  payloadTooLargeErrorSchema,
  rateLimitHeadersDoc,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import { validationAnswerSchema, validationRequestSchema } from './licence-validation-contract.ts';
import { VALIDATE_PATH } from './licence-validation-routes.ts';
import { validateExamples } from '#server/licensing/cli-flow-examples.ts';

export const licenceValidationApiDocs = defineApiDocs([
  {
    method: 'post',
    path: VALIDATE_PATH,
    operationId: 'validateLicense',
    tag: 'Licence validation',
    summary: 'Validate a licence key or access token for the CLI',
    description:
      'Checks run in this order and the first failure is answered: NOT_FOUND → PRODUCT_MISMATCH → PENDING_DELETION → DEACTIVATED (lapsed payment, or revoked by an operator, which payments do not lift) → EXPIRED → TOO_MANY_ORGS. A new `orgId` is admitted while the licence has fewer orgs in use (validated within 30 days) than it covers; orgs already in use keep working. Every valid answer for a named `orgId` carries a signed certificate for that org and product only; the CLI accepts it offline only while it works on the same org and product (docs/licence-certificates.md). Without `orgId` the answer states the licence but carries no certificate. Invalid licences are answered with 200 and `valid: false`; 4xx statuses mean the request itself was wrong.',
    security: [{}, { accessToken: [] }],
    request: { body: validationRequestSchema, bodyExamples: validateExamples.request },
    responses: {
      200: {
        description: 'The validation result (valid or not).',
        schema: validationAnswerSchema,
        examples: validateExamples.answer,
        headers: rateLimitHeadersDoc,
      },
      400: {
        description: 'Malformed JSON, unknown fields, a bad orgId, or both or neither credential.',
        schema: invalidRequestErrorSchema,
      },
      413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
      415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
      429: {
        description: 'Too many validations from this address or for this credential.',
        schema: tooManyRequestsErrorSchema,
        headers: {
          ...rateLimitHeadersDoc,
          'Retry-After': { description: 'Seconds to wait.', schema: z.number().int() },
        },
      },
    },
  },
]);
