import { z } from 'zod';
import {
  LOST_KEY_PATH,
  lostKeyRequestSchema,
  REPLACE_KEY_PATH,
  replaceKeyRequestSchema,
} from '#shared/contracts/licence-recovery.ts';
import { defineApiDocs } from '#server/platform/api-doc/api-doc.ts';
import {
  errorBodySchema,
  invalidRequestErrorSchema,
  payloadTooLargeErrorSchema,
  rateLimitHeadersDoc,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';

export const licenceRecoveryApiDocs = defineApiDocs([
  {
    method: 'post',
    path: LOST_KEY_PATH,
    operationId: 'requestLostLicenceKey',
    tag: 'Lost licence key',
    summary: 'E-mail a link to replace the key of every licence of an address',
    description:
      'Answers 202 whether or not licences exist for the address, and takes the same time either way. When they do, the address each licence was issued to receives a link per licence (24 hours, single use) that replaces its key.',
    request: { body: lostKeyRequestSchema },
    responses: {
      202: { description: 'Accepted; nothing is revealed about the address.' },
      400: { description: 'Malformed JSON or e-mail address.', schema: invalidRequestErrorSchema },
      413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
      415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
      429: {
        description: 'Too many requests from this address or for this e-mail address.',
        schema: tooManyRequestsErrorSchema,
        headers: rateLimitHeadersDoc,
      },
    },
  },
  {
    method: 'post',
    path: REPLACE_KEY_PATH,
    operationId: 'replaceLicenceKey',
    tag: 'Lost licence key',
    summary: 'Replace a licence key with the link token of the lost-key e-mail',
    description:
      'The new key is e-mailed to the licence address; the old key stops working at once. Access tokens keep working.',
    request: { body: replaceKeyRequestSchema },
    responses: {
      200: {
        description: 'The key was replaced; the new one is on its way.',
        schema: z
          .object({ sentTo: z.string().describe('The licence address, masked.') })
          .meta({ id: 'LicenceKeyReplaced' }),
      },
      400: { description: 'Malformed JSON or token.', schema: invalidRequestErrorSchema },
      410: {
        description: 'KeyReplacementLinkInvalid: expired, already used, or not ours.',
        schema: errorBodySchema,
      },
      413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
      415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
      429: {
        description: 'Too many requests from this address.',
        schema: tooManyRequestsErrorSchema,
        headers: rateLimitHeadersDoc,
      },
    },
  },
]);
