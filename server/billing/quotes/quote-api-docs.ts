import { z } from 'zod';
import { quoteRequestSchema, type QuoteResponse } from '#shared/contracts/quotes.ts';
import { defineApiDocs } from '#server/platform/api-doc/api-doc.ts';
import {
  invalidRequestErrorSchema,
  payloadTooLargeErrorSchema,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import type { SameType } from '#server/platform/api-doc/same-type.ts';
import { QUOTES_PATH } from './quote-routes.ts';

const quoteResponseSchema = z
  .object({
    number: z.string().describe('Q-YYYY-NNNN, counted per year.'),
    validUntil: z.string().describe('YYYY-MM-DD: the last day the quote’s prices hold.'),
    downloadUrl: z.string().describe('The PDF: /quotes/<number>.pdf?token=…'),
    acceptUrl: z.string().describe('The page that accepts the quote: /quote/accept?token=…'),
  })
  .meta({ id: 'Quote' });

const responseMatches: SameType<z.output<typeof quoteResponseSchema>, QuoteResponse> = true;
void responseMatches;

export const quoteApiDocs = defineApiDocs([
  {
    method: 'post',
    path: QUOTES_PATH,
    operationId: 'createQuote',
    tag: 'Subscriptions',
    summary: 'Make a PDF quote for a plan of the pricing selector (decision 142)',
    description:
      'Pro (4–24) or Enterprise (25). The quote is stored, e-mailed to emailAddress with its links, and its PDF can be fetched at once from downloadUrl. The VAT ID is checked loosely (two letters, then 2–13 letters or digits); a VAT ID of another EU state makes the quote reverse-charge (decision 143).',
    request: { body: quoteRequestSchema },
    responses: {
      201: { description: 'The quote.', schema: quoteResponseSchema },
      400: { description: 'A field is missing or invalid.', schema: invalidRequestErrorSchema },
      413: { description: 'The body is larger than 16 KiB.', schema: payloadTooLargeErrorSchema },
      415: { description: 'The body is not JSON.', schema: unsupportedMediaTypeErrorSchema },
      429: { description: 'Too many quotes.', schema: tooManyRequestsErrorSchema },
    },
  },
]);
