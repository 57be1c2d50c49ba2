import { SMTPServer } from 'smtp-server';

/**
 * A local SMTP server that keeps every message it receives, for tests that check what e-mails the
 * product sends. Used by Playwright specs (the e2e server gets `SMTP_URL` pointing here) and by
 * in-process API tests. No Playwright import, so both runners can load it.
 */

/** The sink's port for the e2e run; `playwright.config.ts` points the server's SMTP_URL at it. */
export const smtpSinkPort = Number(process.env.E2E_SMTP_PORT ?? 2525);

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
  raw: string;
}

export interface SmtpSink {
  port: number;
  url: string;
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
  /** `delayMs`: how long each DATA takes to be accepted (a slow relay). */
  options: { port?: number; host?: string; delayMs?: number } = {},
): Promise<SmtpSink> {
  const port = options.port ?? smtpSinkPort;
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
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const to = session.envelope.rcptTo.map((rcpt) => rcpt.address);
          const mail = parseMail(raw, to);
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
      server.on('error', reject);
      server.listen(port, host, () => resolve());
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  await start();
  return {
    port,
    url: `smtp://${host}:${port}`,
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

interface MimePart {
  headers: Map<string, string>;
  body: string;
}

function splitHeaders(raw: string): MimePart {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end < 0 ? normalized : normalized.slice(0, end);
  const body = end < 0 ? '' : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const input = text.replace(/=\n/g, '');
  for (let i = 0; i < input.length; i++) {
    const char = input[i] ?? '';
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(input.slice(i + 1, i + 3))) {
      bytes.push(parseInt(input.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(part: MimePart): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '').toLowerCase();
  if (encoding === 'base64')
    return Buffer.from(part.body.replace(/\s/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body);
  return part.body;
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?Q?…?=`) as nodemailer writes them in headers. */
export function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(
      /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g,
      (_, _charset: string, kind: string, data: string) =>
        kind.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64').toString('utf8')
          : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}

function leafParts(part: MimePart): MimePart[] {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) return [part];
  const sections = part.body.split(`--${boundary}`).slice(1);
  return sections
    .filter((section) => !section.startsWith('--'))
    .flatMap((section) => leafParts(splitHeaders(section.replace(/^\n/, ''))));
}

/** A small MIME reader: enough for the text and HTML alternatives nodemailer produces. */
export function parseMail(raw: string, to: string[] = []): ReceivedMail {
  const top = splitHeaders(raw);
  const leaves = leafParts(top);
  const bodyOf = (type: string) =>
    leaves
      .filter((leaf) =>
        (leaf.headers.get('content-type') ?? 'text/plain').toLowerCase().startsWith(type),
      )
      .map(decodeBody)
      .join('')
      .replace(/\n$/, '');
  const header = (name: string) => decodeHeader(top.headers.get(name) ?? '');
  return {
    to:
      to.length > 0
        ? to
        : header('to')
            .split(',')
            .map((value) => value.trim()),
    from: header('from'),
    subject: header('subject'),
    messageId: header('message-id'),
    replyTo: header('reply-to'),
    text: bodyOf('text/plain'),
    html: bodyOf('text/html'),
    headers: top.headers,
    raw,
  };
}
