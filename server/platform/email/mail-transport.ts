import type { Logger } from '../logger.ts';
import type { MailTransport, OutgoingEmail } from './outgoing-email.ts';

/**
 * SMTP when `SMTP_URL` is set, otherwise `.eml` files under `$DATA_DIR/mail` plus a log line.
 * nodemailer (about 30 MB once loaded) loads with the first e-mail, not with every instance
 * (decision 135); a failed load fails that send, and the worker retries it like any other.
 */
export function createMailTransport(
  config: { smtpUrl?: string | undefined; dataDir: string },
  logger: Logger,
): MailTransport {
  const { smtpUrl } = config;
  let transport: Promise<MailTransport> | undefined;
  const open = (): Promise<MailTransport> =>
    (transport ??= (
      smtpUrl
        ? import('./smtp-transport.ts').then((m) => m.createSmtpTransport(smtpUrl))
        : import('./file-transport.ts').then((m) => m.createFileTransport(config.dataDir, logger))
    ).catch((error: unknown) => {
      transport = undefined;
      throw error;
    }));
  return {
    name: smtpUrl ? 'smtp' : 'file',
    async send(email: OutgoingEmail) {
      await (await open()).send(email);
    },
    close() {
      void transport?.then((opened) => opened.close()).catch(() => undefined);
    },
  };
}
