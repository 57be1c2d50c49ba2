import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { PRIVATE_FILE_MODE } from '#server/platform/data-dir/write-private-file.ts';
import { PRIVATE_DIR_MODE } from '../data-dir/make-data-dir-private.ts';
import type { Logger } from '../logger.ts';
import { maskEmailAddress } from './mask-address.ts';
import {
  messageIdHeader,
  nodemailerAttachments,
  type MailTransport,
  type OutgoingEmail,
} from './outgoing-email.ts';

/** Without SMTP, each e-mail becomes an `.eml` file in `$DATA_DIR/mail` (open it in any mail client). */
export function createFileTransport(dataDir: string, logger: Logger): MailTransport {
  const dir = path.resolve(dataDir, 'mail');
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    name: 'file',
    async send(email: OutgoingEmail) {
      const info = await composer.sendMail({
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
      const raw: unknown = info.message;
      if (!Buffer.isBuffer(raw)) throw new Error('the mail composer returned no message');
      // Licence keys and links: the owner's alone (decision 157).
      await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      const stamp = email.createdAt.toISOString().replace(/[:.]/g, '-');
      // Named by the stable message id: a retried write replaces the same file.
      const file = path.join(dir, `${stamp}-${email.kind}-${email.messageId}.eml`);
      await writeFile(file, raw, { mode: PRIVATE_FILE_MODE });
      // Never the whole address in the log (decision 159); the file has it.
      logger.info(
        { to: maskEmailAddress(email.to), kind: email.kind, file },
        'e-mail written to file',
      );
    },
    close: () => composer.close(),
  };
}
