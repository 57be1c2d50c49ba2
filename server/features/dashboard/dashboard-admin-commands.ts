import { formatCents } from '#shared/pricing/index.ts';
import type { DashboardView } from '#shared/contracts/console-dashboard.ts';
import {
  AdminError,
  EXIT_OK,
  type AdminCommand,
  type AdminContext,
} from '#server/platform/commands/command.ts';
import { printTable } from '#server/platform/commands/command-io.ts';
import { currentMonth, readDashboard } from './dashboard.ts';
import { monthSchema } from './dashboard-console-routes.ts';

function printDashboard(context: AdminContext, view: DashboardView): void {
  const out = (line: string) => context.io.out(line);
  const month = view.months.at(-1);
  out(`Dashboard for ${view.month} (read ${view.readAt}, UTC months)`);
  out('');
  if (month) {
    const { trials } = month;
    out(
      `Trials started: ${trials.started}; converted to paid within 60 days: ${trials.converted}` +
        (trials.final ? '' : ' (so far)'),
    );
  }
  const licences = view.activePaidLicences;
  out(
    `Active paid licences now: Starter ${licences.Starter}, Pro ${licences.Pro}, Enterprise ${licences.Enterprise}`,
  );
  out(
    `Subscriptions with an open invoice now: ${view.openInvoiceSubscriptions.open} (${view.openInvoiceSubscriptions.overdue} overdue)`,
  );
  for (const sum of view.invoices) {
    out(
      `Our invoices owed (${sum.currency}): ${sum.open}, ${formatCents(sum.openMinor, sum.currency)}; overdue ${sum.overdue}, ${formatCents(sum.overdueMinor, sum.currency)}`,
    );
  }
  const today = view.usage.at(-1);
  if (today) {
    const validations = view.usage.reduce((sum, day) => sum + day.validations, 0);
    out(
      `Orgs in use on ${today.day}: ${today.orgs}; validations that day: ${today.validations} (${today.refused} refused); this month: ${validations}`,
    );
  }
  out('');
  out('MRR (monthly-normalized, net of VAT)');
  const rows = view.months.flatMap((figures) =>
    figures.mrr.map((m) => [
      figures.month,
      m.currency,
      formatCents(m.startMinor, m.currency),
      formatCents(m.newMinor, m.currency),
      formatCents(m.expansionMinor, m.currency),
      formatCents(m.contractionMinor, m.currency),
      formatCents(m.churnedMinor, m.currency),
      formatCents(m.endMinor, m.currency),
      String(m.payingAtEnd),
    ]),
  );
  if (rows.length === 0) out('No paying subscriptions in these months.');
  else {
    printTable(
      context,
      ['MONTH', 'CUR', 'START', 'NEW', 'EXPANSION', 'CONTRACTION', 'CHURNED', 'END', 'PAYING'],
      rows,
    );
  }
}

const dashboard: AdminCommand = {
  name: 'dashboard',
  summary: "The founder's morning figures: trials, conversion, MRR and its movements, invoices",
  details: [
    'The same figures as the console home page (decision 234), for a UTC month (this one unless',
    '--month) and the 11 before it: trials started and converted within 60 days, MRR per currency',
    '(monthly-normalized, net of VAT) with new, expansion, contraction and churn, active paid',
    'licences by edition, invoices owed and overdue.',
  ].join('\n'),
  options: {
    month: { type: 'string', description: 'The month, YYYY-MM (default: this one)' },
    json: { type: 'boolean', description: 'Print JSON' },
  },
  async run(context, { options }) {
    const now = context.now();
    const given = options.month;
    if (given === true) throw new AdminError('Name the month: --month YYYY-MM.', 2);
    const parsed = given === undefined ? undefined : monthSchema.safeParse(given);
    if (parsed && !parsed.success) {
      throw new AdminError('A month is written YYYY-MM, for example 2026-11.', 2);
    }
    const month = parsed?.data ?? currentMonth(now);
    if (month > currentMonth(now)) throw new AdminError(`${month} has not begun.`, 2);
    const view = await readDashboard(await context.database(), month, now);
    if (options.json === true) context.io.out(JSON.stringify(view, null, 2));
    else printDashboard(context, view);
    return EXIT_OK;
  },
};

export const dashboardAdminCommands: readonly AdminCommand[] = [dashboard];
