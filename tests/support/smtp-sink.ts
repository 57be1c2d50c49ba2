import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A local SMTP server that keeps every message it receives, for tests that check what e-mails the
 * product sends: each Playwright worker's server sends to one (`tests/e2e/support/test.ts`), and
 * the API, security, fault and deployment tests start their own. No Playwright import, so every
 * runner can load it.
 */

export interface ReceivedMail {
  /** Envelope recipients. */
  to: string[];
  from: string;
  subject: string;
  messageId: string;
  replyTo: string;
  text: string;
  html: string;
  headers: Map<string, string>;
  /** The files sent with it, decoded. */
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
  raw: string;
}

export interface SmtpSink {
  /** The port it listens on (the one the system chose when started with port 0). */
  readonly port: number;
  readonly url: string;
  readonly messages: readonly ReceivedMail[];
  /** Resolves with the first message (already received or arriving later) that matches. */
  waitForMail(match: MailMatch, timeoutMs?: number): Promise<ReceivedMail>;
  /** Every received message matching, without waiting. */
  mailsFor(match: MailMatch): ReceivedMail[];
  /** Stops accepting connections (the port refuses until `start` again). */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export type MailMatch =
  { to?: string; subject?: string | RegExp } | ((mail: ReceivedMail) => boolean);

function matches(mail: ReceivedMail, match: MailMatch): boolean {
  if (typeof match === 'function') return match(mail);
  if (match.to && !mail.to.some((to) => to.toLowerCase() === match.to?.toLowerCase())) return false;
  if (match.subject instanceof RegExp && !match.subject.test(mail.subject)) return false;
  if (typeof match.subject === 'string' && mail.subject !== match.subject) return false;
  return true;
}

export async function startSmtpSink(
  /**
   * `port`: 0 (the default) lets the system choose a free one; `delayMs`: how long each DATA takes
   * to be accepted (a slow relay).
   */
  options: { port?: number; host?: string; delayMs?: number } = {},
): Promise<SmtpSink> {
  let port = options.port ?? 0;
  const host = options.host ?? '127.0.0.1';
  const messages: ReceivedMail[] = [];
  const waiters = new Set<(mail: ReceivedMail) => void>();
  let server: SMTPServer | undefined;

  const createServer = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', async () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const to = session.envelope.rcptTo.map((rcpt) => rcpt.address);
          const mail = await parseMail(raw, to).catch((error: unknown) => {
            callback(error instanceof Error ? error : new Error(String(error)));
          });
          if (!mail) return;
          const accept = () => {
            messages.push(mail);
            for (const waiter of waiters) waiter(mail);
            callback();
          };
          if (options.delayMs) setTimeout(accept, options.delayMs);
          else accept();
        });
      },
    });

  const start = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer();
      const listening = server;
      listening.on('error', reject);
      listening.listen(port, host, () => {
        // A restart after `stop` listens on the port chosen the first time.
        const address = listening.server.address();
        if (typeof address === 'object' && address) port = address.port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  await start();
  return {
    get port() {
      return port;
    },
    get url() {
      return `smtp://${host}:${port}`;
    },
    messages,
    mailsFor: (match) => messages.filter((mail) => matches(mail, match)),
    waitForMail(match, timeoutMs = 15_000) {
      const found = messages.find((mail) => matches(mail, match));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no e-mail matching ${JSON.stringify(match)} within ${timeoutMs} ms`));
        }, timeoutMs);
        const waiter = (mail: ReceivedMail) => {
          if (!matches(mail, match)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(mail);
        };
        waiters.add(waiter);
      });
    },
    stop,
    start,
    close: stop,
  };
}

/** `Name <address>` or `address` per mailbox, as the header reads once decoded (mailparser's `text` quotes names). */
function addressText(address: AddressObject | AddressObject[] | undefined): string {
  return mailboxes(address)
    .map(({ name, address: mailbox }) => (name ? `${name} <${mailbox ?? ''}>` : (mailbox ?? '')))
    .join(', ');
}

function mailboxes(address: AddressObject | AddressObject[] | undefined) {
  return (Array.isArray(address) ? address : address ? [address] : []).flatMap(
    (group) => group.value,
  );
}

/** Reads a message with mailparser; `to` are the envelope recipients (else the `To` header). */
export async function parseMail(raw: string, to: string[] = []): Promise<ReceivedMail> {
  const mail = await simpleParser(raw, { skipImageLinks: true, skipTextLinks: true });
  const headers = new Map(
    mail.headerLines.map(({ key, line }) => [key, line.slice(line.indexOf(':') + 1).trim()]),
  );
  // Line breaks as written, less the one a body ends with.
  const body = (text: string | false | undefined) =>
    (text || '').replace(/\r\n/g, '\n').replace(/\n$/, '');
  return {
    to:
      to.length > 0
        ? to
        : mailboxes(mail.to).flatMap((entry) => (entry.address ? [entry.address] : [])),
    from: addressText(mail.from),
    subject: mail.subject ?? '',
    messageId: mail.messageId ?? '',
    replyTo: addressText(mail.replyTo),
    text: body(mail.text),
    html: body(mail.html),
    headers,
    attachments: mail.attachments.map((attachment) => ({
      filename: attachment.filename ?? '',
      contentType: attachment.contentType,
      content: attachment.content,
    })),
    raw,
  };
}
