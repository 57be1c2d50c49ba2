import { Hono } from 'hono';
import { quoteRequestSchema } from '#shared/contracts/quotes.ts';
import type { AppDeps } from '#server/deps.ts';
import { readJsonBody } from '#server/platform/http/request-input.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { gatePublicForm } from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { rateLimitRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { createQuote, quoteDepsOf, quoteLinks } from './create-quote.ts';
import { createQuotePdfCache } from './quote-pdf-cache.ts';
import { readQuoteDocument } from './read-quote.ts';

export const QUOTES_PATH = '/account/v1/quotes';

/**
 * `POST /account/v1/quotes`: the pricing page's "Get a quote" dialog (decision 142), and
 * `GET /quotes/<number>.pdf?token=…`: the quote's PDF for whoever holds its link.
 */
export function quoteRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const quoteDeps = quoteDepsOf(deps);
  const pdfs = createQuotePdfCache();

  app.post(QUOTES_PATH, async (c) => {
    const input = await gatePublicForm(
      c,
      deps.rateLimiter,
      {
        perIp: rateLimitRules.quotePerIp,
        perEmail: rateLimitRules.quotePerEmail,
        addressOf: (input) => input.emailAddress,
      },
      () => readJsonBody(c, quoteRequestSchema),
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
}
