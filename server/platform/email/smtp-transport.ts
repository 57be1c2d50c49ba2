import nodemailer from 'nodemailer';
import type { MailTransport, OutgoingEmail } from './outgoing-email.ts';
import { messageIdHeader, nodemailerAttachments } from './outgoing-email.ts';

/** Delivers through the SMTP server of `SMTP_URL` (e.g. `smtp://user:pass@host:587`). */
export function createSmtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    // A dead server must fail the attempt quickly so the worker can retry later (URL options win).
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    name: 'smtp',
    async send(email: OutgoingEmail) {
      await transporter.sendMail({
        messageId: messageIdHeader(email.messageId, email.from),
        from: email.from,
        to: email.to,
        replyTo: email.replyTo,
        subject: email.subject,
        text: email.text,
        html: email.html,
        attachments: nodemailerAttachments(email),
        date: email.createdAt,
      });
    },
    close: () => transporter.close(),
  };
}
