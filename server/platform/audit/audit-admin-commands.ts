import { AdminError, EXIT_FAILURE, EXIT_OK, type AdminCommand } from '../commands/command.ts';
import { positiveInteger, printTable } from '../commands/command-io.ts';
import {
  createAuditLogRepository,
  verifyAuditChain,
  type AuditEventView,
} from './audit-log-repository.ts';

const verify: AdminCommand = {
  name: 'audit verify',
  summary: 'Check that no audit event was changed, inserted or removed',
  details: [
    'Recomputes the hash chain of the audit log (decision 224) from the first event to the last,',
    'and the digest of every event whose details are still held. Prints',
    '"ok: N events, chain intact" and the last hash (note it: a later run must still pass through',
    'it), or exits 1 naming the first event that does not follow from the one before.',
  ].join('\n'),
  async run(context) {
    const verdict = await verifyAuditChain(await context.database());
    if (!verdict.ok) {
      context.io.err(
        `broken: event ${verdict.brokenAt} of ${verdict.events} read: ${verdict.problem}.`,
      );
      return EXIT_FAILURE;
    }
    const erased =
      verdict.erasedDetails > 0 ? ` (${verdict.erasedDetails} with details erased)` : '';
    context.io.out(`ok: ${verdict.events} events, chain intact${erased}`);
    if (verdict.lastId !== null) context.io.out(`head: event ${verdict.lastId}, ${verdict.head}`);
    return EXIT_OK;
  },
};

/** `2026-11-01` as the start of that day (UTC), or a usage error naming the option. */
function day(value: string | boolean | undefined, option: string): Date {
  const text = typeof value === 'string' ? value : '';
  const date = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00Z`) : undefined;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) {
    throw new AdminError(`--${option} must be a date like 2026-11-01, got "${text}".`, 2);
  }
  return date;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function line(event: AuditEventView): string {
  return JSON.stringify({
    id: event.id,
    occurredAt: event.occurredAt.toISOString(),
    actor: event.details?.actor ?? event.actor,
    action: event.action,
    target: { type: event.targetType, id: event.targetId },
    reason: event.details?.reason ?? null,
    requestId: event.requestId,
    before: event.details?.before ?? null,
    after: event.details?.after ?? null,
    detailsErased: event.details === null,
    hash: event.hash,
  });
}

const exportEvents: AdminCommand = {
  name: 'audit export',
  summary:
    'Write the audit events of a period as NDJSON: audit export --from 2026-11-01 --to 2026-11-30',
  details: [
    'One JSON object per line, oldest first, for the days from --from to --to (both included,',
    'UTC): time, actor, action, target, reason, request id, the record before and after, and the',
    "event's hash. Details an erasure removed read detailsErased: true.",
  ].join('\n'),
  options: {
    from: { type: 'string', description: 'First day (YYYY-MM-DD, UTC)' },
    to: { type: 'string', description: 'Last day (YYYY-MM-DD, UTC)' },
  },
  async run(context, { options }) {
    const from = day(options.from, 'from');
    const to = new Date(day(options.to, 'to').getTime() + DAY_MS);
    if (to <= from) throw new AdminError('--to must not be before --from.', 2);
    const repository = createAuditLogRepository(await context.database());
    let after = 0;
    for (;;) {
      const page = await repository.between(from, to, after, 1_000);
      for (const event of page) context.io.out(line(event));
      const last = page.at(-1);
      if (!last || page.length < 1_000) break;
      after = last.id;
    }
    return EXIT_OK;
  },
};

const TARGET = /^([a-z_]{1,40}):(\S{1,200})$/;

const list: AdminCommand = {
  name: 'audit list',
  summary: 'Show the newest audit events, of everything or of one target (licence:<id>)',
  arguments: [],
  options: {
    target: {
      type: 'string',
      description: 'Only this target: licence:<id>, access_token:<id>, quote:<number>, …',
    },
    limit: { type: 'string', description: 'How many (default 50)' },
  },
  async run(context, { options }) {
    const limit = options.limit === undefined ? 50 : positiveInteger(options.limit, 'limit');
    const repository = createAuditLogRepository(await context.database());
    let events: AuditEventView[];
    if (options.target !== undefined) {
      const match = TARGET.exec(typeof options.target === 'string' ? options.target : '');
      if (!match?.[1] || !match[2]) {
        throw new AdminError('--target must read type:id, e.g. licence:<id>.', 2);
      }
      events = await repository.ofTarget(match[1], match[2], limit);
    } else {
      events = await repository.newest(limit);
    }
    if (events.length === 0) {
      context.io.out('No audit events.');
      return EXIT_OK;
    }
    printTable(
      context,
      ['ID', 'TIME (UTC)', 'ACTOR', 'ACTION', 'TARGET', 'REASON'],
      events.map((event) => [
        String(event.id),
        event.occurredAt.toISOString().replace('T', ' ').slice(0, 19),
        event.details?.actor ?? event.actor,
        event.action,
        `${event.targetType}:${event.targetId}`,
        event.details?.reason ?? (event.details ? '' : '(erased)'),
      ]),
    );
    return EXIT_OK;
  },
};

export const auditAdminCommands: readonly AdminCommand[] = [list, verify, exportEvents];
