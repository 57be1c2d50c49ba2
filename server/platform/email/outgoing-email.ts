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

/** Builds a full Message-ID from the stored id and the sender's domain. */
export function messageIdHeader(id: string, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<${id}@${domain}>`;
}
