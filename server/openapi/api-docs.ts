import { z } from 'zod';
import { accessTokenApiDocs } from '../access-tokens/access-token-api-docs.ts';
import { billingPortalApiDocs } from '../billing-portal/billing-portal-api-docs.ts';
import { checkoutApiDocs } from '../checkout/checkout-api-docs.ts';
import { invoiceCheckoutApiDocs } from '../invoices/invoice-checkout-api-docs.ts';
import { contactApiDocs } from '../contact/contact-api-docs.ts';
import { csrfApiDocs } from '../http/csrf-api-docs.ts';
import { licenceCertificateApiDocs } from '../licence-certificates/licence-certificate-api-docs.ts';
import { licenceRecoveryApiDocs } from '../licence-recovery/licence-recovery-api-docs.ts';
import { licenceValidationApiDocs } from '../licence-validation/licence-validation-api-docs.ts';
import { paymentWebhookApiDocs } from '../payments/webhook-api-docs.ts';
import { releaseApiDocs } from '../releases/release-api-docs.ts';
import { trialApiDocs } from '../trials/trial-api-docs.ts';
import { defineApiDocs, type ApiOperationDoc } from './api-doc.ts';
import { invalidRequestErrorSchema } from './common-errors.ts';

export const OPENAPI_PATH = '/account/v1/openapi.json';

const openApiDocs = defineApiDocs([
  {
    method: 'get',
    path: OPENAPI_PATH,
    operationId: 'getOpenApiDocument',
    tag: 'Reference',
    summary: 'This OpenAPI 3.1 document',
    responses: {
      200: { description: 'The document.', schema: z.record(z.string(), z.unknown()) },
      400: { description: 'Query parameters were sent.', schema: invalidRequestErrorSchema },
    },
  },
]);

/**
 * Every documented endpoint of the account service and the site's API. A domain that adds routes
 * exports its `xxxApiDocs` beside them and lists it here; `tests/api/licensing-openapi.test.ts`
 * fails when a registered route is missing here or a listed one does not answer.
 */
export const apiDocs: readonly ApiOperationDoc[] = [
  ...contactApiDocs,
  ...csrfApiDocs,
  ...trialApiDocs,
  ...billingPortalApiDocs,
  ...checkoutApiDocs,
  ...invoiceCheckoutApiDocs,
  ...paymentWebhookApiDocs,
  ...releaseApiDocs,
  ...licenceValidationApiDocs,
  ...licenceCertificateApiDocs,
  ...accessTokenApiDocs,
  ...licenceRecoveryApiDocs,
  ...openApiDocs,
];

export const securitySchemes = {
  accessToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'An access token created for a licence (for CI), sent instead of the licence key.',
  },
};
