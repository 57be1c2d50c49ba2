import { Hono } from 'hono';
import type { ServicePorts } from '#server/platform/ports/service-ports.ts';
import { defineRoutes } from '#server/platform/api-doc/define-route.ts';
import type { AppEnv } from '#server/platform/http/types.ts';
import { readPaymentDocument } from './read-payment-document.ts';

/**
 * `GET /documents/<number>.pdf?token=…`: an invoice, receipt or credit note for whoever holds its signed link
 * (decision 180). Drawn from the stored document on each fetch; 404 alike for an unknown number
 * and a wrong token.
 */
export const paymentDocumentRoutes = defineRoutes([], (deps: ServicePorts) => {
  const app = new Hono<AppEnv>();
  app.get('/documents/:file{[A-Z]{2,3}-[0-9]{4}-[0-9]{5,9}\\.pdf}', async (c) => {
    const number = c.req.param('file').slice(0, -'.pdf'.length);
    c.header('Cache-Control', 'no-store');
    c.header('X-Robots-Tag', 'noindex');
    c.header('Referrer-Policy', 'no-referrer');
    const document = await readPaymentDocument(
      { db: deps.database.db, secretKey: deps.secretKey },
      number,
      c.req.query('token'),
    );
    if (!document) return c.text('Not Found', 404);
    // pdfkit and the fonts load with the first document only (decision 135).
    const { renderPaymentDocumentPdf } = await import('./render-payment-document-pdf.ts');
    const pdf = await renderPaymentDocumentPdf(document);
    c.header('Content-Type', 'application/pdf');
    c.header('Content-Disposition', `inline; filename="${number}.pdf"`);
    return c.body(new Uint8Array(pdf), 200);
  });
  return app;
});
