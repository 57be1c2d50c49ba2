import { contactMessageSchema } from '#shared/contracts/contact.ts';
import { defineApiDocs } from '#server/platform/api-doc/api-doc.ts';
import {
  invalidRequestErrorSchema,
  payloadTooLargeErrorSchema,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';

export const contactApiDocs = defineApiDocs([
  {
    method: 'post',
    path: '/api/submitContactForm',
    operationId: 'submitContactForm',
    tag: 'Contact',
    origin: 'site',
    summary: 'Send a message through the contact form (docs/product-rules.md#service-calls)',
    request: { body: contactMessageSchema },
    responses: {
      204: { description: 'Received.' },
      400: { description: 'A field is missing or invalid.', schema: invalidRequestErrorSchema },
      413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
      415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
      429: { description: 'Too many messages.', schema: tooManyRequestsErrorSchema },
    },
  },
]);
