import { AdminError, EXIT_OK, type AdminCommand } from '#server/platform/commands/command.ts';
import { secretKeyOf } from '#server/platform/commands/command-io.ts';
import { parseDocumentNumber } from '#server/billing/documents/payment-document.ts';
import { createPaymentDocumentRepository } from '#server/billing/documents/payment-document-repository.ts';
import { sweepInvoiceReminders } from '#server/billing/subscriptions/sweep-invoice-reminders.ts';
import { adminSyncDeps, type AdminSyncSettings } from '../admin-sync-deps.ts';
import { handlePaymentEvent } from '#server/billing/subscriptions/sync-subscription.ts';
import { markLocalInvoicePaid } from './local-invoices.ts';

function requireLocalProvider(env: { STRIPE_SECRET_KEY?: string }): void {
  if (env.STRIPE_SECRET_KEY) {
    throw new AdminError(
      'STRIPE_SECRET_KEY is set: invoices live at Stripe (its Dashboard marks them paid).',
    );
  }
}

/** The sync as the server runs it, for the events a command raises (decision 145). */
const syncDeps = adminSyncDeps;

const markPaid: AdminCommand<AdminSyncSettings> = {
  name: 'invoices mark-paid',
  summary: 'Record the payment of an open local invoice; a suspended licence works again',
  details: [
    'What a bank transfer reaching Stripe does: the invoice is paid, the provider raises',
    'invoice.paid, and the sync restores a licence suspended for it (decision 144).',
    'Only with the local provider (no STRIPE_SECRET_KEY).',
  ].join('\n'),
  arguments: [{ name: 'invoice', description: 'The invoice number (INV-…) or id (lin_…)' }],
  async run(context, { args }) {
    requireLocalProvider(context.env);
    const [given] = args;
    if (!given) throw new AdminError('Name the invoice: invoices mark-paid <invoice>', 2);
    const db = await context.database();
    // Our number names the provider's invoice it documents (decision 220).
    const document = parseDocumentNumber(given)
      ? await createPaymentDocumentRepository(db).findByNumber(given)
      : undefined;
    const idOrNumber = document?.kind === 'invoice' ? document.providerInvoiceId : given;
    const marked = await markLocalInvoicePaid({ db, clock: context.now }, idOrNumber);
    if (!marked.ok) throw new AdminError(marked.detail);
    const deps = await syncDeps(db, context.env, context.now, await secretKeyOf(context, db));
    for (const event of marked.events) await handlePaymentEvent(deps, event);
    const shown = document?.number ?? marked.invoice.number ?? marked.invoice.id;
    context.io.out(`Invoice ${shown} is paid.`);
    return EXIT_OK;
  },
};

const remind: AdminCommand<AdminSyncSettings> = {
  name: 'invoices remind',
  summary: 'Send the reminders of overdue invoices and suspend licences past the grace time now',
  details: [
    'What the hourly lifecycle job does for pay by invoice (decision 144), run at once: a reminder',
    'on the due date and a week later (each once), and the licence suspended 14 days past due.',
    'Works with Stripe and with the local provider.',
  ].join('\n'),
  async run(context) {
    const db = await context.database();
    const deps = await syncDeps(db, context.env, context.now, await secretKeyOf(context, db));
    const report = await sweepInvoiceReminders(deps);
    context.io.out(
      `${report.reminded} reminders queued, ${report.suspended} licences checked for suspension, ${report.failed} failed.`,
    );
    return EXIT_OK;
  },
};

/** Invoices sent for payment (decisions 144, 145): mark paid (local), remind now; `invoices list` lists the documents. */
export const localInvoiceAdminCommands: readonly AdminCommand<AdminSyncSettings>[] = [
  markPaid,
  remind,
];
