import {
  AdminError,
  EXIT_OK,
  type AdminCommand,
  type CommandSettings,
} from '#server/platform/commands/command.ts';
import type { BillingPorts } from '#server/billing/billing-ports.ts';
import { sweepInvoiceReminders } from '#server/billing/subscriptions/sweep-invoice-reminders.ts';
import { syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import { recordInvoicePayment } from './record-invoice-payment.ts';

/** The invoice commands: printers over the domain's functions (decision 232). */
type InvoiceCommand = AdminCommand<CommandSettings, BillingPorts>;

const markPaid: InvoiceCommand = {
  name: 'invoices mark-paid',
  summary: 'Record the payment of an open local invoice; a suspended licence works again',
  details: [
    'What a bank transfer reaching Stripe does: the invoice is paid, the provider raises',
    'invoice.paid, and the sync restores a licence suspended for it (decision 144).',
    'Only with the local provider (no STRIPE_SECRET_KEY).',
  ].join('\n'),
  arguments: [{ name: 'invoice', description: 'The invoice number (INV-…) or id (lin_…)' }],
  async run(context, { args }) {
    const [given] = args;
    if (!given) throw new AdminError('Name the invoice: invoices mark-paid <invoice>', 2);
    const result = await recordInvoicePayment(await context.ports(), given);
    if (!result.ok) throw new AdminError(result.detail);
    context.io.out(`Invoice ${result.shown} is paid.`);
    return EXIT_OK;
  },
};

const remind: InvoiceCommand = {
  name: 'invoices remind',
  summary: 'Send the reminders of overdue invoices and suspend licences past the grace time now',
  details: [
    'What the hourly lifecycle job does for pay by invoice (decision 144), run at once: a reminder',
    'on the due date and a week later (each once), and the licence suspended 14 days past due.',
    'Works with Stripe and with the local provider.',
  ].join('\n'),
  async run(context) {
    const report = await sweepInvoiceReminders(syncDepsOf(await context.ports()));
    context.io.out(
      `${report.reminded} reminders queued, ${report.suspended} licences checked for suspension, ${report.failed} failed.`,
    );
    return EXIT_OK;
  },
};

/** Invoices sent for payment (decisions 144, 145): mark paid (local), remind now; `invoices list` lists the documents. */
export const localInvoiceAdminCommands: readonly InvoiceCommand[] = [markPaid, remind];
