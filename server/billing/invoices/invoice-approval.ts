import { z } from 'zod';
import { singleLineCheck } from '#shared/contracts/fields.ts';
import { currencies, type Currency } from '#shared/pricing/index.ts';

/**
 * When an invoice order waits for finance before any key or invoice exists (issue 41, decision
 * 230): its net amount is above the currency's threshold, or it is the first order of a company
 * that has never paid us (`firstOrder: 'review'`, the default).
 */
export interface InvoiceApprovalPolicy {
  /** Net amounts above which an order waits, in minor units per currency; 0: every order. */
  aboveMinor: Record<Currency, number>;
  /** `review`: a company's first order waits whatever its amount; `trust`: only the threshold. */
  firstOrder: 'review' | 'trust';
}

/** Net per order, per currency, above which finance looks first (major units). */
export const DEFAULT_INVOICE_APPROVAL_ABOVE: Record<Currency, number> = { EUR: 5_000, USD: 5_000 };

/** Finance answers within this many working days (Monday to Friday); the buyer is told the day. */
export const INVOICE_REVIEW_WORKING_DAYS = 2;

export type ApprovalAboveSetting =
  { ok: true; aboveMinor: Record<Currency, number> } | { ok: false; message: string };

/**
 * `INVOICE_APPROVAL_ABOVE`: one amount for every currency (`5000`), or per currency
 * (`EUR:5000,USD:6000`; a currency not named keeps its default), whole major units of the net
 * amount; `0` sends every order to the queue.
 */
export function readInvoiceApprovalAbove(text: string | undefined): ApprovalAboveSetting {
  return readApprovalAbove(text, DEFAULT_INVOICE_APPROVAL_ABOVE);
}

/**
 * A four-eyes threshold setting (`INVOICE_APPROVAL_ABOVE`, `REFUND_APPROVAL_ABOVE`): one whole
 * amount for every currency, or per currency (a currency not named keeps `defaults`), in major
 * units; read as minor units.
 */
export function readApprovalAbove(
  text: string | undefined,
  defaults: Readonly<Record<Currency, number>>,
): ApprovalAboveSetting {
  const major = { ...defaults };
  const value = text?.trim() ?? '';
  const amount = (part: string) => (/^\d{1,9}$/.test(part) ? Number(part) : undefined);
  if (value !== '') {
    const single = amount(value);
    if (single !== undefined) {
      for (const currency of currencies) major[currency] = single;
    } else {
      for (const part of value.split(',')) {
        const match = /^\s*([A-Za-z]{3})\s*:\s*(\d{1,9})\s*$/.exec(part);
        const currency = match?.[1]?.toUpperCase();
        const parsed = match?.[2] === undefined ? undefined : amount(match[2]);
        if (
          !currency ||
          parsed === undefined ||
          !(currencies as readonly string[]).includes(currency)
        ) {
          return {
            ok: false,
            message: `must be a whole amount (5000) or per currency (EUR:5000,USD:6000), not "${part.trim()}"`,
          };
        }
        major[currency as Currency] = parsed;
      }
    }
  }
  return {
    ok: true,
    aboveMinor: { EUR: major.EUR * 100, USD: major.USD * 100 },
  };
}

export type ApprovalReason = 'first-order' | 'above-threshold';

/** Why an order waits for finance, or null when it goes through as before. */
export function approvalReason(
  policy: InvoiceApprovalPolicy,
  order: { netMinor: number; currency: Currency; paidBefore: boolean },
): ApprovalReason | null {
  if (
    order.netMinor > policy.aboveMinor[order.currency] ||
    policy.aboveMinor[order.currency] === 0
  ) {
    return 'above-threshold';
  }
  if (policy.firstOrder === 'review' && !order.paidBefore) return 'first-order';
  return null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The end of the day `INVOICE_REVIEW_WORKING_DAYS` working days after `now` (UTC). */
export function reviewDueAt(now: Date): Date {
  let day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  let left = INVOICE_REVIEW_WORKING_DAYS;
  while (left > 0) {
    day = new Date(day.getTime() + DAY_MS);
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return new Date(day.getTime() + DAY_MS - 1000);
}

/**
 * The reason of a finance decision (decision 230), from the CLI or the console: required, one line,
 * read by the buyer when the order is rejected.
 */
export const reviewReasonSchema = z
  .string('A reason is required')
  .trim()
  .min(3, 'The reason is at least 3 characters')
  .max(300, 'The reason is at most 300 characters')
  .check(singleLineCheck());
