import {
  AdminError,
  EXIT_OK,
  type AdminCommand,
  type AdminContext,
  type CommandSettings,
} from '#server/platform/commands/command.ts';
import { formatTime, printTable } from '#server/platform/commands/command-io.ts';
import type { FeaturePorts } from '../feature-ports.ts';
import { customerStory, type CustomerStory } from './customer-story.ts';
import { SEARCH_MAX_LENGTH, searchCustomers } from './customer-search-repository.ts';

/** The customer commands: printers over the domain's functions (decision 232). */
type CustomerCommand = AdminCommand<CommandSettings, FeaturePorts>;

const search: CustomerCommand = {
  name: 'customers search',
  summary: 'Find customers by address, key, org id, number, provider id or company name',
  details: [
    'Reads the text as support reads a ticket (decision 227): an e-mail address in any spelling,',
    'a full licence key (a key with a group missing finds nothing), a licence id, a Salesforce org',
    'id (15 or 18 characters), a quote (Q-…), invoice or credit note (INV-…, CN-…) or order (io_…)',
    'number, a Stripe customer or subscription id (cus_…, sub_…), else the first letters of a',
    'company name. Lists each customer once, with what matched; `customers show` tells the story.',
  ].join('\n'),
  arguments: [{ name: 'text', description: 'What to look for' }],
  async run(context, { args }) {
    const text = args.join(' ').trim();
    if (!text) throw new AdminError('Name what to look for: customers search <text>.', 2);
    if (text.length > SEARCH_MAX_LENGTH) {
      throw new AdminError(`The text can be at most ${SEARCH_MAX_LENGTH} characters.`, 2);
    }
    const ports = await context.ports();
    const result = await searchCustomers(
      { db: ports.database.db, secretKey: ports.secretKey },
      text,
    );
    if (result.hits.length === 0) {
      context.io.out(`No customer found (read as ${result.kind}).`);
      return EXIT_OK;
    }
    printTable(
      context,
      ['CUSTOMER', 'E-MAIL', 'MATCHED'],
      result.hits.map((hit) => [hit.customer, hit.email, hit.matched]),
    );
    return EXIT_OK;
  },
};

function printStory(context: AdminContext, story: CustomerStory): void {
  const out = (line: string) => context.io.out(line);
  out(`Customer ${story.customer} (written ${story.spellings.join(', ') || '–'})`);
  out('');
  out(`Licences (${story.licences.length})`);
  if (story.licences.length > 0) {
    printTable(
      context,
      ['ID', 'LICENCE', 'STATE', 'KEY', 'EXPIRES', 'ORGS', 'TOKENS'],
      story.licences.map((licence) => [
        licence.id,
        `${licence.type} ${licence.edition}`,
        licence.state,
        licence.maskedKey,
        formatTime(licence.expiresAt),
        `${licence.orgsInUse} of ${licence.orgLimit}`,
        String(licence.tokens.filter((token) => !token.revokedAt).length),
      ]),
    );
  }
  for (const licence of story.licences.filter((l) => l.orgs.length > 0)) {
    out('');
    out(`Orgs of ${licence.id}`);
    printTable(
      context,
      ['ORG', 'FIRST SEEN', 'LAST SEEN', 'COUNTS UNTIL'],
      licence.orgs.map((org) => [
        org.orgId,
        formatTime(org.firstSeenAt),
        formatTime(org.lastSeenAt),
        formatTime(org.countsUntil),
      ]),
    );
  }
  const section = (title: string, header: string[], rows: string[][]) => {
    out('');
    out(`${title} (${rows.length})`);
    if (rows.length > 0) printTable(context, header, rows);
  };
  section(
    'Subscriptions',
    ['SUBSCRIPTION', 'STATUS', 'PLAN', 'PAID BY', 'PERIOD ENDS', 'OPEN INVOICE'],
    story.subscriptions.map((row) => [
      `${row.provider}:${row.subscriptionId}`,
      row.cancelAtPeriodEnd ? `${row.status}, cancels` : row.status,
      `${row.edition} ${row.quantity}, ${row.billingPeriod} ${row.currency}`,
      row.collection,
      formatTime(row.currentPeriodEnd),
      row.openInvoiceNumber ?? '–',
    ]),
  );
  section(
    'Invoice orders',
    ['ORDER', 'STATUS', 'PLACED', 'INVOICE', 'QUOTE'],
    story.invoiceOrders.map((row) => [
      row.id,
      row.status,
      formatTime(row.createdAt),
      row.invoiceNumber ?? '–',
      row.quoteNumber ?? '–',
    ]),
  );
  section(
    'Quotes',
    ['QUOTE', 'STATUS', 'COMPANY', 'PLAN', 'VALID UNTIL'],
    story.quotes.map((row) => [
      row.number,
      row.status,
      row.companyName,
      `${row.edition} ${row.quantity}`,
      row.validUntil,
    ]),
  );
  section(
    'Documents',
    ['NUMBER', 'KIND', 'ISSUED', 'GROSS', 'PAID'],
    story.documents.map((row) => [
      row.number,
      row.kind,
      String(row.issuedOn),
      `${(row.grossMinor / 100).toFixed(2)} ${row.currency}`,
      row.kind === 'credit_note' ? `credits ${row.creditsNumber ?? '?'}` : formatTime(row.paidAt),
    ]),
  );
  section(
    'E-mails',
    ['SENT', 'KIND', 'TO', 'STATUS', 'ATTEMPTS', 'SUBJECT'],
    story.emails.map((row) => [
      formatTime(row.sentAt ?? row.createdAt),
      row.kind,
      row.to,
      row.status,
      String(row.attempts),
      row.subject,
    ]),
  );
  section(
    'Audit trail',
    ['TIME', 'ACTOR', 'ACTION', 'TARGET', 'REASON'],
    story.audit.map((event) => [
      formatTime(event.occurredAt),
      event.actor,
      event.action,
      `${event.target.type}:${event.target.id}`,
      event.reason ?? '',
    ]),
  );
}

const show: CustomerCommand = {
  name: 'customers show',
  summary:
    "A customer's whole story: licences, orgs, subscriptions, orders, quotes, documents, e-mails, audit trail",
  details:
    'Everything held about the address under any of its spellings (the same reading as `privacy export`), without keys or token hashes. --json prints it as JSON.',
  arguments: [{ name: 'address', description: 'The e-mail address, in any spelling' }],
  options: { json: { type: 'boolean', description: 'Print it as JSON' } },
  async run(context, { args, options }) {
    const address = (args[0] ?? '').trim();
    if (!address.includes('@')) {
      throw new AdminError('Name the customer by e-mail address: customers show <address>.', 2);
    }
    const ports = await context.ports();
    const story = await customerStory(
      { db: ports.database.db, secretKey: ports.secretKey, clock: ports.clock },
      address,
    );
    if (!story) throw new AdminError(`Nothing is held about ${address}.`);
    if (options.json === true) context.io.out(JSON.stringify(story, null, 2));
    else printStory(context, story);
    return EXIT_OK;
  },
};

export const customerAdminCommands: readonly CustomerCommand[] = [search, show];
