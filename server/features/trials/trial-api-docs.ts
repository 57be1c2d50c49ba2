import { trialRequestQuerySchema } from '#shared/contracts/trial.ts';
import { defineApiDocs } from '#server/platform/api-doc/api-doc.ts';
import {
  errorBodySchema,
  tooManyRequestsErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';

export const trialApiDocs = defineApiDocs([
  {
    method: 'post',
    path: '/account/v1/licenses/trial',
    operationId: 'startTrial',
    tag: 'Trials',
    summary:
      'Issue a two-month trial licence to an e-mail address (docs/product-rules.md#service-calls)',
    description:
      'Parameters in the query string, no body. The licence key is e-mailed; the answer has no body.',
    request: { query: trialRequestQuerySchema },
    responses: {
      204: { description: 'The licence was issued and its e-mail queued.' },
      400: {
        description: 'InvalidRequest, ProductIdInvalid or ReferralCodeInvalid.',
        schema: errorBodySchema,
      },
      409: {
        description: 'TrialLicenseAlreadyUsed: the address already held a licence.',
        schema: errorBodySchema,
      },
      429: { description: 'Too many requests.', schema: tooManyRequestsErrorSchema },
    },
  },
]);
