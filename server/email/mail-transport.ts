import type { Logger } from '../logger.ts';
import { createFileTransport } from './file-transport.ts';
import type { MailTransport } from './outgoing-email.ts';
import { createSmtpTransport } from './smtp-transport.ts';

/** SMTP when `SMTP_URL` is set, otherwise `.eml` files under `$DATA_DIR/mail` plus a log line. */
export function createMailTransport(
  config: { smtpUrl?: string | undefined; dataDir: string },
  logger: Logger,
): MailTransport {
  if (config.smtpUrl) return createSmtpTransport(config.smtpUrl);
  return createFileTransport(config.dataDir, logger);
}
