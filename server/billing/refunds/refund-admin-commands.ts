import { z } from 'zod';
import {
  AdminError,
  EXIT_OK,
  type AdminCommand,
  type CommandSettings,
} from '#server/platform/commands/command.ts';
import { formatCents } from '#shared/pricing/index.ts';
import { singleLineCheck } from '#shared/contracts/fields.ts';
import type { BillingPorts } from '../billing-ports.ts';
import { syncDepsOf } from '../subscriptions/sync-subscription.ts';
import { parseDocumentNumber } from '../documents/payment-document.ts';
import { REFUND_REASON_MAX_LENGTH, refundPayment } from './refund-payment.ts';

/** `12`, `12.3`, `12.34`: an amount in the document's currency, at most two decimals. */
const AMOUNT = /^(\d{1,9})(?:\.(\d{1,2}))?$/;

/** What `payments refund` accepts; anything else is a usage error (exit 2) that changes nothing. */
export const refundInputSchema = z.object({
  reference: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Name the invoice or receipt: INV-YYYY-NNNNN (or Stripe’s)'),
  amount: z
    .string()
    .regex(AMOUNT, '--amount is a positive amount with at most two decimals, e.g. 12.34')
    .transform((text) => {
      const [, units = '0', cents = ''] = AMOUNT.exec(text) ?? [];
      return Number(units) * 100 + Number(cents.padEnd(2, '0'));
    })
    .refine((minor) => minor > 0, '--amount must be more than 0')
    .optional(),
  reason: z
    .string('--reason "…" is required: it is printed on the credit note')
    .trim()
    .min(3, '--reason "…" is required: it is printed on the credit note')
    .max(REFUND_REASON_MAX_LENGTH, `--reason is at most ${REFUND_REASON_MAX_LENGTH} characters`)
    .check(singleLineCheck()),
});

const refund: AdminCommand<CommandSettings, BillingPorts> = {
  name: 'payments refund',
  summary: 'Refund all or part of a paid invoice or receipt; its credit note goes to the buyer',
  details: [
    'Pays back through the payment provider what was paid for <document> (all that is left, or',
    '--amount, gross, in its currency) and issues a credit note for it (decision 220): ours',
    '(CN-YYYY-NNNNN, e-mailed with its PDF link) for the local provider, Stripe’s with Stripe.',
    'The same document, amount and reason are one refund: run twice, it refunds once and names',
    'the first credit note. More than is left is refused, and so is an unpaid invoice (cancel',
    'its order instead: invoice-orders cancel). A refund that leaves nothing of a subscription’s',
    'latest payment ends the subscription and its licence at once; a partial one keeps them.',
  ].join('\n'),
  arguments: [
    { name: 'document', description: 'INV-YYYY-NNNNN, or Stripe’s invoice number or id (in_…)' },
  ],
  options: {
    amount: { type: 'string', description: 'Gross amount to refund, e.g. 12.34 (default: all)' },
    reason: { type: 'string', description: 'Why (printed on the credit note), required' },
  },
  async run(context, { args, options }) {
    const parsed = refundInputSchema.safeParse({
      reference: args[0],
      amount: options.amount,
      reason: options.reason,
    });
    if (!parsed.success) {
      throw new AdminError(parsed.error.issues.map((issue) => issue.message).join('\n'), 2);
    }
    const result = await refundPayment(syncDepsOf(await context.ports()), {
      reference: parsed.data.reference,
      amountMinor: parsed.data.amount ?? null,
      reason: parsed.data.reason,
    });
    if (!result.ok) throw new AdminError(`Refused: ${result.detail}`);
    const amount =
      result.amountMinor !== null && result.currency
        ? formatCents(result.amountMinor, result.currency)
        : 'the amount';
    const ours = parseDocumentNumber(result.reference) !== null;
    const note = `credit note ${result.creditNote.number ?? ''}`.trim();
    const delivery = ours ? 'e-mailed to the buyer' : 'Stripe’s, which Stripe e-mails to the buyer';
    context.io.out(
      [
        result.replayed
          ? `Already refunded: ${amount} of ${result.reference}, ${note}. Nothing new was refunded.`
          : `Refunded ${amount} of ${result.reference}: ${note}, ${delivery}.`,
        ...(result.creditNote.url ? [`Link:    ${result.creditNote.url}`] : []),
        ...(result.endedSubscription
          ? [
              `Nothing is left of its latest payment: subscription ${result.endedSubscription} and its licence have ended.`,
            ]
          : []),
      ].join('\n'),
    );
    return EXIT_OK;
  },
};

/** Refunds (decision 220). */
export const refundAdminCommands: readonly AdminCommand<CommandSettings, BillingPorts>[] = [refund];
