import type { QuoteRequest, QuoteResponse } from '#shared/contracts/quotes.ts';
import { siteConfig } from '#shared/site-config.ts';
import type { Database } from '#server/platform/db/database.ts';
import type { BillingPorts } from '#server/billing/billing-ports.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import { quoteEmail } from './emails/quote-email.ts';
import { buildQuoteDocument } from './quote-document.ts';
import { formatQuoteNumber, quoteDates } from './quote-number.ts';
import { createQuoteRepository } from './quote-repository.ts';
import { createQuoteToken, hashQuoteToken } from './quote-token.ts';
import { confirmVatId, viesClientOf } from '../vat/confirm-vat-id.ts';
import type { ViesClient } from '../vat/vies-client.ts';

export interface QuoteDeps {
  db: Database;
  clock: () => Date;
  secretKey: string;
  publicBaseUrl: string;
  vies: ViesClient;
  logger?: BillingPorts['logger'] | undefined;
}

/** The quotes domain's dependencies, from the app's. */
export function quoteDepsOf(deps: BillingPorts): QuoteDeps {
  return {
    db: deps.database.db,
    clock: deps.clock,
    secretKey: deps.secretKey,
    publicBaseUrl: deps.env.PUBLIC_BASE_URL,
    vies: viesClientOf(deps.env),
    logger: deps.logger,
  };
}

/** The two links of a quote; the token is the only key to either. */
export function quoteLinks(publicBaseUrl: string, number: string, token: string) {
  const query = new URLSearchParams({ token }).toString();
  return {
    downloadUrl: new URL(`/quotes/${number}.pdf?${query}`, publicBaseUrl).toString(),
    acceptUrl: new URL(`/quote/accept?${query}`, publicBaseUrl).toString(),
  };
}

/**
 * Makes a quote: VIES asked about an EU buyer's VAT ID first, outside the transaction (decision
 * 210), then its number from the year's counter, the priced document, the row and the e-mail
 * with its links and the PDF attached, all in one transaction (decisions 142, 181). The
 * download link draws the PDF again from the stored document.
 */
export async function createQuote(deps: QuoteDeps, request: QuoteRequest): Promise<QuoteResponse> {
  const vatIdConfirmation = await confirmVatId(deps, request);
  const now = deps.clock();
  const { quoteDate, year, validUntil } = quoteDates(now, siteConfig.company.timeZone);
  const token = createQuoteToken();
  return deps.db.transaction(async (tx) => {
    const repository = createQuoteRepository(tx);
    const sequence = await repository.nextSequence(year);
    const number = formatQuoteNumber(year, sequence);
    const document = buildQuoteDocument({
      request,
      number,
      quoteDate,
      validUntil,
      publicBaseUrl: deps.publicBaseUrl,
      vatIdConfirmation,
    });
    await repository.insert({
      number,
      year,
      sequence,
      tokenHash: hashQuoteToken(deps.secretKey, token),
      companyName: request.companyName,
      email: request.emailAddress,
      billingAddress: document.buyer.addressLines.join('\n'),
      vatId: request.vatId ?? null,
      purchaseOrder: request.purchaseOrder ?? null,
      edition: request.edition,
      quantity: request.quantity,
      billingPeriod: request.billingPeriod,
      currency: request.billingCurrency,
      totalCents: document.totalCents,
      quoteDate,
      validUntil,
      document,
      createdAt: now,
    });
    const links = quoteLinks(deps.publicBaseUrl, number, token);
    const email = quoteEmail({ document, ...links, publicBaseUrl: deps.publicBaseUrl });
    // The PDF rides along for procurement to forward (decision 181); the link stays. Loaded with
    // the first quote only (decision 135).
    const { renderQuotePdf } = await import('./render-quote-pdf.ts');
    const pdf = await renderQuotePdf(document, links.acceptUrl);
    await createOutboxRepository(tx).enqueue(
      {
        ...email,
        kind: 'quote',
        to: request.emailAddress,
        replyTo: siteConfig.salesEmail,
        attachments: [{ filename: `${number}.pdf`, contentType: 'application/pdf', content: pdf }],
      },
      now,
    );
    return { number, validUntil, ...links };
  });
}
