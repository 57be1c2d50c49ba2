import { AdminError, EXIT_OK, type AdminCommand } from '#server/platform/commands/command.ts';
import { formatTime, positiveInteger, printTable } from '#server/platform/commands/command-io.ts';
import { createProviderCallRepository } from './provider-call-repository.ts';

const list: AdminCommand = {
  name: 'provider-calls list',
  summary: 'List the lifecycle’s provider calls waiting, or given up after their last attempt',
  details: [
    'The licence lifecycle queues "cancel" and "resync" calls to the payment provider and retries',
    'them with backoff (decision 246). Without --failed: the calls waiting; with it: those given up,',
    'newest first, with their last error. `provider-calls retry <id>` tries a given-up call again.',
  ].join('\n'),
  options: {
    failed: { type: 'boolean', description: 'The calls given up instead of those waiting' },
    limit: { type: 'string', description: 'How many (default 100)' },
    json: { type: 'boolean', description: 'Print JSON' },
  },
  async run(context, { options }) {
    const limit = options.limit === undefined ? 100 : positiveInteger(options.limit, 'limit');
    const calls = createProviderCallRepository(await context.database());
    const rows =
      options.failed === true ? await calls.failed(limit) : (await calls.pending()).slice(0, limit);
    if (options.json === true) {
      context.io.out(JSON.stringify(rows, null, 2));
      return EXIT_OK;
    }
    if (rows.length === 0) {
      context.io.out(
        options.failed === true ? 'No provider call was given up.' : 'No provider call waits.',
      );
      return EXIT_OK;
    }
    printTable(
      context,
      ['ID', 'KIND', 'SUBSCRIPTION', 'STATUS', 'TRIES', 'NEXT ATTEMPT', 'LAST ERROR'],
      rows.map((row) => [
        String(row.id),
        row.kind,
        row.subscriptionId,
        row.status,
        String(row.attempts),
        row.status === 'pending' ? formatTime(row.nextAttemptAt) : '–',
        row.lastError ?? '',
      ]),
    );
    return EXIT_OK;
  },
};

const retry: AdminCommand = {
  name: 'provider-calls retry',
  summary: 'Try a given-up provider call again: due now, with a fresh count of attempts',
  arguments: [{ name: 'id', description: 'The call’s id (provider-calls list --failed)' }],
  async run(context, { args }) {
    const id = /^\d{1,15}$/.test(args[0] ?? '') ? Number(args[0]) : 0;
    if (id < 1)
      throw new AdminError(
        'Name the call by its id, a whole number (provider-calls list --failed).',
        2,
      );
    const result = await createProviderCallRepository(await context.database()).retry(
      id,
      context.now(),
    );
    if (result === 'not-failed') {
      throw new AdminError(`Provider call ${id} is not one that was given up; nothing changed.`);
    }
    if (result === 'already-waiting') {
      throw new AdminError(
        `A call of the same kind for that subscription waits already; nothing changed.`,
      );
    }
    context.io.out(
      `Provider call ${id} is due again now; the provider-calls job makes it within a minute.`,
    );
    return EXIT_OK;
  },
};

export const providerCallAdminCommands: readonly AdminCommand[] = [list, retry];
