import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { normalizedEmailOf } from './normalized-email.ts';

export const outboxStatuses = ['pending', 'sent', 'failed'] as const;
export type OutboxStatus = (typeof outboxStatuses)[number];

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/** A file carried by an outbox message, its content base64 (cleared once the message is sent). */
export interface StoredAttachment {
  filename: string;
  contentType: string;
  contentBase64: string;
}

/**
 * The transactional e-mail outbox. Bodies and attachments are cleared once a message is delivered,
 * so licence keys and documents do not stay in the database.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    messageId: text('message_id').notNull().unique(),
    toAddress: text('to_address').notNull(),
    toAddressNormalized: normalizedEmailOf('to_address').notNull(),
    replyTo: text('reply_to'),
    replyToNormalized: normalizedEmailOf('reply_to'),
    subject: text('subject').notNull(),
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    /** Files sent with the message; cleared with the bodies once it is sent. */
    attachments: jsonb('attachments').$type<StoredAttachment[]>(),
    status: text('status', { enum: outboxStatuses }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When the message is next due (first send or retry). */
    nextAttemptAt: timestamptz('next_attempt_at').notNull(),
    /** Set while a worker holds the message; it extends the lease while it sends (decision 111). */
    leasedUntil: timestamptz('leased_until'),
    /**
     * The last claim: new with every claim, cleared when a claim is given back unattempted. Only its
     * holder may record the attempt's outcome, and may write that outcome again (decision 194).
     */
    claimToken: uuid('claim_token'),
    lastError: text('last_error'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    sentAt: timestamptz('sent_at'),
    /** A sent message's content, sealed with the instance secret, for a resend (decision 235). */
    sealedContent: text('sealed_content'),
    /** Until when the sealed content is kept; it cannot be resent after. */
    sealedUntil: timestamptz('sealed_until'),
    /** The message this one resends (an operator's resend). */
    resentFrom: bigint('resent_from', { mode: 'number' }).references(
      (): AnyPgColumn => emailOutbox.id,
      { onDelete: 'set null' },
    ),
  },
  (table) => [
    index('email_outbox_to_address_normalized_idx').on(table.toAddressNormalized),
    index('email_outbox_reply_to_normalized_idx')
      .on(table.replyToNormalized)
      .where(sql`${table.replyToNormalized} is not null`),
    index('email_outbox_sealed_until_idx')
      .on(table.sealedUntil)
      .where(sql`${table.sealedContent} is not null`),
    index('email_outbox_resent_from_idx')
      .on(table.resentFrom)
      .where(sql`${table.resentFrom} is not null`),
  ],
);
