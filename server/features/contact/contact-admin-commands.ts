import { createContactMessageRepository } from '#server/features/contact/contact-repository.ts';
import { EXIT_OK, type AdminCommand } from '#server/platform/commands/command.ts';
import { formatTime, positiveInteger, sinceDay } from '#server/platform/commands/command-io.ts';
import { terminalField } from '#server/platform/commands/terminal-text.ts';

const list: AdminCommand = {
  name: 'contact-messages list',
  summary: 'List contact form messages, newest first',
  options: {
    limit: { type: 'string', description: 'How many (default 20)' },
    since: { type: 'string', description: 'Only messages from this day on (YYYY-MM-DD, UTC)' },
    json: { type: 'boolean', description: 'Print JSON' },
  },
  async run(context, { options }) {
    const limit = options.limit === undefined ? 20 : positiveInteger(options.limit, 'limit');
    const since = sinceDay(options.since);
    const messages = await createContactMessageRepository(await context.database()).listRecent({
      limit,
      since,
    });
    if (options.json === true) {
      context.io.out(JSON.stringify(messages, null, 2));
      return EXIT_OK;
    }
    if (messages.length === 0) {
      context.io.out('No contact messages.');
      return EXIT_OK;
    }
    for (const [index, message] of messages.entries()) {
      if (index > 0) context.io.out('');
      const who = [message.role, message.company]
        .filter((value): value is string => Boolean(value))
        .map(terminalField)
        .join(', ');
      context.io.out(
        `${formatTime(message.createdAt)}  ${terminalField(message.name)} <${terminalField(message.email)}>${who ? ` — ${who}` : ''}`,
      );
      // The message's own line breaks are its layout; each line is a value (decision 208).
      for (const line of message.message.split(/\r?\n/)) {
        context.io.out(`  ${terminalField(line)}`);
      }
    }
    return EXIT_OK;
  },
};

/** Contact message commands (listed by the domain's manifest, decision 169). */
export const contactMessageAdminCommands: readonly AdminCommand[] = [list];
