import { z } from 'zod';
import { syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import {
  AdminError,
  EXIT_OK,
  type AdminCommand,
  type CommandSettings,
} from '#server/platform/commands/command.ts';
import type { FeaturePorts } from '../feature-ports.ts';
import { erasePersonalDataOf, exportPersonalData } from './privacy-requests.ts';

/** What the privacy commands read besides their ports: where `.eml` files are written. */
export interface PrivacySettings extends CommandSettings {
  DATA_DIR: string;
}

const addressSchema = z.email().max(254);

/** The address argument: one e-mail address, or a usage error. */
function addressOf(args: string[], command: string): string {
  const [address, ...rest] = args;
  const parsed = addressSchema.safeParse(address?.trim());
  if (!parsed.success || rest.length > 0) {
    throw new AdminError(`Name one e-mail address: privacy ${command} <email>`, 2);
  }
  return parsed.data;
}

const exportCommand: AdminCommand<PrivacySettings, FeaturePorts> = {
  name: 'privacy export',
  summary: 'Write everything held about an e-mail address as JSON (GDPR Art. 15)',
  details: [
    'Licences, access tokens, orgs, subscriptions, provider events, quotes, invoice orders,',
    'invoices, contact messages, e-mails sent to or for the address and their .eml files in',
    '$DATA_DIR/mail, under every spelling of the address (normalized as for trials, decisions',
    '051 and 211), without key and token hashes. Written owner-only (0600) to --out, else',
    'printed. Recorded in privacy_requests without the address (decision 193).',
  ].join('\n'),
  arguments: [{ name: 'email', description: 'The e-mail address' }],
  options: { out: { type: 'string', description: 'The JSON file to write' } },
  async run(context, { args, options }) {
    const address = addressOf(args, 'export');
    if (options.out === true || options.out === '') throw new AdminError('--out needs a file', 2);
    const ports = await context.ports();
    const { counts, document } = await exportPersonalData(
      {
        db: ports.database.db,
        secretKey: ports.secretKey,
        clock: ports.clock,
        dataDir: context.env.DATA_DIR,
      },
      address,
    );
    const json = `${JSON.stringify(document, null, 2)}\n`;
    if (typeof options.out === 'string') {
      const file = context.resolvePath(options.out);
      await context.files.write(file, Buffer.from(json));
      const found = Object.entries(counts).filter(([, n]) => n > 0);
      context.io.out(
        `Wrote ${file}: ${found.length === 0 ? 'nothing is held about this address' : found.map(([part, n]) => `${part} ${n}`).join(', ')}.`,
      );
    } else {
      context.io.out(json.trimEnd());
    }
    return EXIT_OK;
  },
};

const eraseCommand: AdminCommand<PrivacySettings, FeaturePorts> = {
  name: 'privacy erase',
  summary: 'Erase what no law makes us keep about an e-mail address (GDPR Art. 17)',
  details: [
    'Ends the address’s running subscriptions at the payment provider first (or refuses, with',
    'the reason, erasing nothing), then deletes, under every spelling of the address, its',
    'licences, tokens, orgs, e-mails and their .eml files, contact messages, provider events,',
    'quotes never accepted and unconfirmed orders, and anonymises the test provider’s customer.',
    'Invoices, confirmed orders, accepted quotes and subscriptions stay for their statutory',
    'period (docs/retention.md); the command says per table what it erased, what it kept and',
    'why. Recorded in privacy_requests without the address (decision 193).',
  ].join('\n'),
  arguments: [{ name: 'email', description: 'The e-mail address' }],
  options: {
    'dry-run': {
      type: 'boolean',
      description: 'Say what would be erased and kept; change nothing',
    },
  },
  async run(context, { args, options }) {
    const address = addressOf(args, 'erase');
    const dryRun = options['dry-run'] === true;
    const result = await erasePersonalDataOf(
      { ...syncDepsOf(await context.ports()), dataDir: context.env.DATA_DIR },
      address,
      { dryRun },
    );
    if (!result.ok) throw new AdminError(`Not erased: ${result.reason}`);
    const { io } = context;
    if (dryRun) {
      io.out('Dry run: nothing was changed.');
      for (const id of result.toEnd)
        io.out(`Would end subscription ${id} at the payment provider.`);
    }
    for (const id of result.ended) io.out(`Ended subscription ${id} at the payment provider.`);
    const erased = Object.entries(result.erased).filter(([, n]) => n > 0);
    io.out(
      erased.length === 0
        ? `${dryRun ? 'Would erase' : 'Erased'}: nothing.`
        : `${dryRun ? 'Would erase' : 'Erased'}: ${erased.map(([table, n]) => `${table} ${n}`).join(', ')}.`,
    );
    if (result.kept.length === 0) io.out('Kept: nothing.');
    for (const kept of result.kept) io.out(`Kept: ${kept.table} ${kept.rows} — ${kept.why}.`);
    return EXIT_OK;
  },
};

/** Privacy commands (listed by the domain's manifest, decision 169). */
export const privacyAdminCommands: readonly AdminCommand<PrivacySettings, FeaturePorts>[] = [
  exportCommand,
  eraseCommand,
];
