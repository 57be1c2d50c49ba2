import { AdminError, EXIT_OK, type AdminCommand } from '#server/platform/commands/command.ts';
import { formatTime, printTable, secretKeyOf } from '#server/platform/commands/command-io.ts';
import { sweepInvoiceReminders } from '#server/billing/subscriptions/sweep-invoice-reminders.ts';
import { adminSyncDeps, type AdminSyncSettings } from '../admin-sync-deps.ts';
import { handlePaymentEvent } from '#server/billing/subscriptions/sync-subscription.ts';
import { formatMinorAmount } from './local-billing.ts';
import { markLocalInvoicePaid } from './local-invoices.ts';
import { createLocalPaymentRepository } from './local-payment-repository.ts';

function requireLocalProvider(env: { STRIPE_SECRET_KEY?: string }): void {
  if (env.STRIPE_SECRET_KEY) {
    throw new AdminError(
      'STRIPE_SECRET_KEY is set: invoices live at Stripe (its Dashboard marks them paid).',
    );
  }
}

/** The sync as the server runs it, for the events a command raises (decision 145). */
const syncDeps = adminSyncDeps;

const list: AdminCommand<AdminSyncSettings> = {
  name: 'invoices list',
  summary: "List the local payment provider's invoices sent for payment (pay by invoice)",
  details:
    'Newest first: number, status, amount, due date, company, PO number and subscription. Only with the local provider (no STRIPE_SECRET_KEY).',
  async run(context) {
    requireLocalProvider(context.env);
    const db = await context.database();
    const invoices = await createLocalPaymentRepository(db).sentInvoices(100);
    printTable(
      context,
      ['NUMBER', 'STATUS', 'AMOUNT', 'DUE', 'COMPANY', 'PO', 'SUBSCRIPTION'],
      invoices.map((invoice) => [
        invoice.number ?? invoice.id,
        invoice.status,
        formatMinorAmount(invoice.amount, invoice.currency),
        formatTime(invoice.dueAt),
        invoice.companyName ?? '–',
        invoice.poReference ?? '–',
        invoice.subscriptionId,
      ]),
    );
    return EXIT_OK;
  },
};

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
    const [idOrNumber] = args;
    if (!idOrNumber) throw new AdminError('Name the invoice: invoices mark-paid <invoice>', 2);
    const db = await context.database();
    const marked = await markLocalInvoicePaid({ db, clock: context.now }, idOrNumber);
    if (!marked.ok) throw new AdminError(marked.detail);
    const deps = await syncDeps(db, context.env, context.now, await secretKeyOf(context, db));
    for (const event of marked.events) await handlePaymentEvent(deps, event);
    context.io.out(`Invoice ${marked.invoice.number ?? marked.invoice.id} is paid.`);
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

/** Invoices sent for payment (decisions 144, 145): list, mark paid (local), remind now. */
export const localInvoiceAdminCommands: readonly AdminCommand<AdminSyncSettings>[] = [
  list,
  markPaid,
  remind,
];
