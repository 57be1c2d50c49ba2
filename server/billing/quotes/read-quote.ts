import { constantTimeEqual } from '#server/platform/crypto/constant-time-equal.ts';
import type { QuoteSummary } from '#shared/contracts/quotes.ts';
import { formatCents } from '#shared/pricing/index.ts';
import type { QuoteDeps } from './create-quote.ts';
import { quoteDocumentSchema, quoteTotals, type QuoteDocument } from './quote-document.ts';
import { parseQuoteNumber } from './quote-number.ts';
import { createQuoteRepository, type StoredQuote } from './quote-repository.ts';
import { quoteStatusOf } from './quote-status.ts';
import { hashQuoteToken, QUOTE_TOKEN_PATTERN } from './quote-token.ts';

function documentOf(row: StoredQuote): QuoteDocument {
  return quoteDocumentSchema.parse(row.document);
}

/**
 * The document of quote `number` when `token` is its link's token, else undefined: an unknown
 * number and a wrong token look the same to the caller (404).
 */
export async function readQuoteDocument(
  deps: QuoteDeps,
  number: string,
  token: string | undefined,
): Promise<QuoteDocument | undefined> {
  if (!parseQuoteNumber(number) || !token || !QUOTE_TOKEN_PATTERN.test(token)) return undefined;
  const row = await createQuoteRepository(deps.db).findByNumber(number);
  if (!row || !constantTimeEqual(row.tokenHash, hashQuoteToken(deps.secretKey, token)))
    return undefined;
  return documentOf(row);
}

/** The quote whose accept link carries `token`, if any (an order that accepts it). */
export async function findQuoteByToken(
  deps: Pick<QuoteDeps, 'db' | 'secretKey'>,
  token: string,
): Promise<StoredQuote | undefined> {
  if (!QUOTE_TOKEN_PATTERN.test(token)) return undefined;
  return createQuoteRepository(deps.db).findByTokenHash(hashQuoteToken(deps.secretKey, token));
}

export type QuoteToAccept =
  | { ok: true; quote: StoredQuote }
  | { ok: false; code: 'QuoteLinkInvalid' | 'QuotePlanDiffers' | 'QuoteAccepted' | 'QuoteExpired' };

/**
 * The quote an order or a checkout may accept, in order: its link's token names a quote → for
 * the same plan, size, period and currency → neither accepted (decisions 154, 214) nor expired.
 */
export async function quoteToAccept(
  deps: Pick<QuoteDeps, 'db' | 'secretKey'>,
  token: string,
  plan: { edition: string; quantity: number; billingPeriod: string; currency: string },
  now: Date,
): Promise<QuoteToAccept> {
  const quote = await findQuoteByToken(deps, token);
  if (!quote) return { ok: false, code: 'QuoteLinkInvalid' };
  const samePlan =
    quote.edition === plan.edition &&
    quote.quantity === plan.quantity &&
    quote.billingPeriod === plan.billingPeriod &&
    quote.currency === plan.currency;
  if (!samePlan) return { ok: false, code: 'QuotePlanDiffers' };
  const status = quoteStatusOf(quote, now);
  if (status === 'accepted') return { ok: false, code: 'QuoteAccepted' };
  if (status === 'expired') return { ok: false, code: 'QuoteExpired' };
  return { ok: true, quote };
}

/** What the accept page shows for its link. */
export async function readQuoteSummary(
  deps: QuoteDeps,
  token: string | null,
): Promise<QuoteSummary> {
  if (!token) return { state: 'missing' };
  if (!QUOTE_TOKEN_PATTERN.test(token)) return { state: 'invalid' };
  const row = await createQuoteRepository(deps.db).findByTokenHash(
    hashQuoteToken(deps.secretKey, token),
  );
  if (!row) return { state: 'invalid' };
  const document = documentOf(row);
  const totals = quoteTotals(document);
  const { currency } = document.plan;
  const status = quoteStatusOf(row, deps.clock());
  return {
    state: status,
    ...(status === 'accepted'
      ? {
          accepted: {
            on: row.acceptedAt?.toISOString().slice(0, 10) ?? document.quoteDate,
            by: row.acceptedBy ?? 'invoice',
            invoiceNumber: row.acceptedInvoiceNumber,
          },
        }
      : {}),
    number: document.number,
    quoteDate: document.quoteDate,
    validUntil: document.validUntil,
    companyName: document.buyer.companyName,
    edition: document.plan.edition,
    quantity: document.plan.quantity,
    billingPeriod: document.plan.billingPeriod,
    currency,
    planName: document.plan.name,
    lines: document.lines.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unitPrice: formatCents(line.unitCents, currency),
      amount: formatCents(line.amountCents, currency),
    })),
    total: formatCents(document.totalCents, currency),
    period: document.period,
    totals: totals.lines.map((line) => ({
      label: line.label,
      amount: line.cents === null ? null : formatCents(line.cents, currency),
      emphasis: line.emphasis,
    })),
    taxNote: totals.note,
    ...(document.yearlySavingCents !== undefined
      ? { yearlySaving: formatCents(document.yearlySavingCents, currency) }
      : {}),
    ...(document.buyer.purchaseOrder ? { purchaseOrder: document.buyer.purchaseOrder } : {}),
    buyerEmail: document.buyer.email,
    ...(document.buyer.vatId ? { vatId: document.buyer.vatId } : {}),
    ...(document.buyer.address ? { address: document.buyer.address } : {}),
  };
}
