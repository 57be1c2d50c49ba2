import {
  createOutboxRepository,
  outboxStatuses,
  type OutboxStatus,
} from '#server/platform/email/outbox-repository.ts';
import { AdminError, EXIT_OK, type AdminCommand } from '#server/platform/commands/command.ts';
import { formatTime, positiveInteger, printTable } from '#server/platform/commands/command-io.ts';

function isOutboxStatus(value: string): value is OutboxStatus {
  return outboxStatuses.some((status) => status === value);
}

const show: AdminCommand = {
  name: 'outbox show',
  summary: 'Show queued, failed or sent e-mails of the outbox',
  details:
    'Without --status: messages still pending and those that failed. Bodies are not shown (they may hold a licence key) and are deleted once a message is sent.',
  options: {
    status: { type: 'string', description: 'pending, failed, sent or all' },
    limit: { type: 'string', description: 'How many (default 50)' },
    json: { type: 'boolean', description: 'Print JSON' },
  },
  async run(context, { options }) {
    const limit = options.limit === undefined ? 50 : positiveInteger(options.limit, 'limit');
    const wanted = typeof options.status === 'string' ? options.status : undefined;
    let statuses: OutboxStatus[];
    if (wanted === undefined) statuses = ['pending', 'failed'];
    else if (wanted === 'all') statuses = [...outboxStatuses];
    else if (isOutboxStatus(wanted)) statuses = [wanted];
    else throw new AdminError('--status must be pending, failed, sent or all.', 2);
    const rows = await createOutboxRepository(await context.database()).listRecent({
      statuses,
      limit,
    });
    const shown = rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      to: row.toAddress,
      subject: row.subject,
      status: row.status,
      attempts: row.attempts,
      nextAttemptAt: row.nextAttemptAt,
      sentAt: row.sentAt,
      lastError: row.lastError,
      createdAt: row.createdAt,
    }));
    if (options.json === true) {
      context.io.out(JSON.stringify(shown, null, 2));
      return EXIT_OK;
    }
    if (shown.length === 0) {
      context.io.out(`No ${statuses.join(' or ')} e-mails.`);
      return EXIT_OK;
    }
    printTable(
      context,
      ['ID', 'STATUS', 'TRIES', 'KIND', 'TO', 'CREATED', 'NEXT / SENT', 'LAST ERROR'],
      shown.map((row) => [
        String(row.id),
        row.status,
        String(row.attempts),
        row.kind,
        row.to,
        formatTime(row.createdAt),
        formatTime(row.status === 'sent' ? row.sentAt : row.nextAttemptAt),
        (row.lastError ?? '').slice(0, 60),
      ]),
    );
    return EXIT_OK;
  },
};

const retry: AdminCommand = {
  name: 'outbox retry',
  summary: 'Send a failed (or waiting) e-mail again now',
  details:
    'Gives the message a fresh set of attempts, due immediately; the running server picks it up within a minute. "failed" retries every failed message. Sent messages cannot be retried: their bodies were deleted.',
  arguments: [{ name: 'id', description: 'Message id from `outbox show`, or "failed"' }],
  async run(context, { args }) {
    const target = args[0] ?? '';
    const outbox = createOutboxRepository(await context.database());
    const now = context.now();
    if (target === 'failed') {
      const count = await outbox.requeueFailed(now);
      context.io.out(
        count === 0 ? 'No failed e-mails.' : `Queued ${count} failed e-mail(s) again.`,
      );
      return EXIT_OK;
    }
    if (!/^\d+$/.test(target)) throw new AdminError(`"${target}" is not a message id.`, 2);
    const row = await outbox.findById(Number(target));
    if (!row) throw new AdminError(`No outbox message has the id ${target}.`);
    if (row.status === 'sent') {
      throw new AdminError(
        `Message ${target} was sent ${formatTime(row.sentAt)}; its body is gone.`,
      );
    }
    await outbox.requeue(row.id, now);
    context.io.out(`Message ${target} (${row.kind} to ${row.toAddress}) is due again now.`);
    return EXIT_OK;
  },
};

/** Outbox commands (listed by the domain's manifest, decision 169). */
export const outboxAdminCommands: readonly AdminCommand[] = [show, retry];
