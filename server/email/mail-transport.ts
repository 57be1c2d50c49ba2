import type { Logger } from '../logger.ts';
import { createFileTransport } from './file-transport.ts';
import { createSmtpTransport } from './smtp-transport.ts';

/** One e-mail as the worker hands it to a transport. */
export interface OutgoingEmail {
  /** Stable across retries: receivers can drop a duplicate by its Message-ID. */
  messageId: string;
  kind: string;
  from: string;
  to: string;
  replyTo?: string | undefined;
  subject: string;
  text: string;
  html: string;
  createdAt: Date;
}

/** Where e-mails go: an SMTP server, or files in the data directory. */
export interface MailTransport {
  readonly name: string;
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

/** SMTP when `SMTP_URL` is set, otherwise `.eml` files under `$DATA_DIR/mail` plus a log line. */
export function createMailTransport(
  config: { smtpUrl?: string | undefined; dataDir: string },
  logger: Logger,
): MailTransport {
  if (config.smtpUrl) return createSmtpTransport(config.smtpUrl);
  return createFileTransport(config.dataDir, logger);
}

/** Builds a full Message-ID from the stored id and the sender's domain. */
export function messageIdHeader(id: string, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<${id}@${domain}>`;
}
