/** A file sent with an e-mail (a quote's PDF). */
export interface EmailAttachment {
  /** The name the receiver's mail client shows and saves it under. */
  filename: string;
  contentType: string;
  content: Buffer;
}

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
  attachments: EmailAttachment[];
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

/** The attachments in the form nodemailer takes them. */
export function nodemailerAttachments(email: OutgoingEmail) {
  return email.attachments.map((attachment) => ({
    filename: attachment.filename,
    contentType: attachment.contentType,
    content: attachment.content,
  }));
}
