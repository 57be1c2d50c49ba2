import type { AdminCommand } from './command.ts';
import { backupAdminCommands } from '../backup/backup-admin-commands.ts';
import { releaseAdminCommands } from '../releases/release-admin-commands.ts';
import { accessTokenAdminCommands } from './commands/access-token-commands.ts';
import { contactMessageAdminCommands } from './commands/contact-message-commands.ts';
import { licenceAdminCommands } from './commands/licence-commands.ts';
import { outboxAdminCommands } from './commands/outbox-commands.ts';
import { referralCodeAdminCommands } from './commands/referral-code-commands.ts';

/** Every operator command; add yours from your domain folder (one import, one spread). */
export const adminCommands: readonly AdminCommand[] = [
  ...releaseAdminCommands,
  ...licenceAdminCommands,
  ...accessTokenAdminCommands,
  ...referralCodeAdminCommands,
  ...contactMessageAdminCommands,
  ...outboxAdminCommands,
  ...backupAdminCommands,
];
