import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { StoredAttachment } from '../db/schema.ts';

/**
 * A sent message's content, sealed for a resend (decision 235): its bodies may hold a licence key,
 * so the row keeps them only encrypted (AES-256-GCM, key derived from the instance secret), bound
 * to the row's id, and only for {@link RESEND_WINDOW_DAYS}.
 */
export interface SealableContent {
  textBody: string | null;
  htmlBody: string | null;
  attachments: StoredAttachment[] | null;
}

/** How long a sent message can be resent with the same content. */
export const RESEND_WINDOW_DAYS = 14;

const contentSchema = z.object({
  textBody: z.string().nullable(),
  htmlBody: z.string().nullable(),
  attachments: z
    .array(z.object({ filename: z.string(), contentType: z.string(), contentBase64: z.string() }))
    .nullable(),
});

function keyOf(secretKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, 'orgsmith', 'email-resend-content', 32));
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64url; the outbox id is authenticated with it. */
export function sealContent(secretKey: string, outboxId: number, content: SealableContent): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secretKey), iv);
  cipher.setAAD(Buffer.from(`email_outbox:${outboxId}`));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(content), 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The content sealed for this row, or undefined when it cannot be opened (another secret). */
export function openContent(
  secretKey: string,
  outboxId: number,
  sealed: string,
): SealableContent | undefined {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) return undefined;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      keyOf(secretKey),
      Buffer.from(iv, 'base64url'),
    );
    decipher.setAAD(Buffer.from(`email_outbox:${outboxId}`));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const text = Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
    return contentSchema.parse(JSON.parse(text));
  } catch {
    return undefined;
  }
}
