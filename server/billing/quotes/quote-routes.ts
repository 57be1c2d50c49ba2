import { Hono } from 'hono';
import { quoteRequestSchema, quoteResponseSchema } from '#shared/contracts/quotes.ts';
import type { BillingPorts } from '#server/billing/billing-ports.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { gatePublicForm } from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { createQuote, quoteDepsOf, quoteLinks } from './create-quote.ts';
import { createQuotePdfCache } from './quote-pdf-cache.ts';
import { readQuoteDocument } from './read-quote.ts';
import {
  invalidRequestErrorSchema,
  payloadTooLargeErrorSchema,
  tooManyRequestsErrorSchema,
  unsupportedMediaTypeErrorSchema,
} from '#server/platform/api-doc/common-errors.ts';
import { defineRoute, defineRoutes } from '#server/platform/api-doc/define-route.ts';

export const QUOTES_PATH = '/account/v1/quotes';

const createQuoteRoute = defineRoute({
  method: 'post',
  path: QUOTES_PATH,
  auth: 'csrf',
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
});

/**
 * `POST /account/v1/quotes`: the pricing page's "Get a quote" dialog (decision 142), and
 * `GET /quotes/<number>.pdf?token=…`: the quote's PDF for whoever holds its link.
 */
export const quoteRoutes = defineRoutes([createQuoteRoute], (deps: BillingPorts) => {
  const app = new Hono<AppEnv>();
  const quoteDeps = quoteDepsOf(deps);
  const pdfs = createQuotePdfCache();

  createQuoteRoute.handle(app, async (c, request) => {
    const input = await gatePublicForm(
      c,
      deps.rateLimiter,
      {
        perIp: rateLimitRules.quotePerIp,
        perEmail: rateLimitRules.quotePerEmail,
        addressOf: (input) => input.emailAddress,
      },
      () => request.body(),
    );
    if (!input.ok) return input.response;
    const quote = await createQuote(quoteDeps, input.value);
    deps.wakeOutbox();
    c.header('Cache-Control', 'no-store');
    return c.json(quote, 201);
  });

  app.get('/quotes/:file{Q-[0-9]{4}-[0-9]{4,9}\\.pdf}', async (c) => {
    const number = c.req.param('file').slice(0, -'.pdf'.length);
    const token = c.req.query('token');
    // An unknown number and a wrong token answer alike.
    c.header('Cache-Control', 'no-store');
    c.header('X-Robots-Tag', 'noindex');
    c.header('Referrer-Policy', 'no-referrer');
    const document = await readQuoteDocument(quoteDeps, number, token);
    if (!document || !token) return c.text('Not Found', 404);
    const pdf = await pdfs.pdfOf(
      document,
      quoteLinks(deps.env.PUBLIC_BASE_URL, number, token).acceptUrl,
    );
    c.header('Content-Type', 'application/pdf');
    c.header('Content-Disposition', `inline; filename="${number}.pdf"`);
    return c.body(new Uint8Array(pdf), 200);
  });

  return app;
});
