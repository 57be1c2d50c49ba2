import { z } from 'zod';
import { actingAs, type AuditContext } from '#server/platform/audit/audit-context.ts';
import { recordAuditEvent } from '#server/platform/audit/audit-log-repository.ts';
import type { Database } from '#server/platform/db/database.ts';
import { outboxStatuses } from '#server/platform/db/schema.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import {
  createOutboxRepository,
  type OutboxRow,
} from '#server/platform/email/outbox-repository.ts';
import { openContent } from '#server/platform/email/sealed-content.ts';
import { LOG_PAGE_MAX, LOG_PAGE_SIZE, logCursor } from './log-page.ts';

export const emailLogQuerySchema = z.strictObject({
  status: z.enum(outboxStatuses).optional(),
  to: z.email('An e-mail address').max(254).optional(),
  before: logCursor.optional(),
  limit: z.coerce.number().int().min(1).max(LOG_PAGE_MAX).optional(),
});

export type EmailLogQuery = z.infer<typeof emailLogQuerySchema>;

/** Why an operator retries or resends, kept in the audit log's details. */
export const emailActionBodySchema = z.strictObject({
  reason: z
    .string('Give a reason.')
    .trim()
    .min(3, 'The reason is at least 3 characters.')
    .max(300, 'The reason is at most 300 characters.'),
});

/** Resends to one address within a day, whoever asks (decision 235): no mail-bombing a customer. */
export const RESENDS_PER_ADDRESS_PER_DAY = 3;

export interface EmailLogEntry {
  id: number;
  kind: string;
  /** In full: operators answer customers about them (decision 235). */
  to: string;
  subject: string;
  status: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  nextAttemptAt: string | null;
  resentFrom: number | null;
  /** Until when a sent message can be resent with its content; null when it cannot be. */
  resendableUntil: string | null;
}

function entryOf(row: OutboxRow, now: Date): EmailLogEntry {
  const resendable =
    row.status === 'sent' && row.sealedContent !== null && row.sealedUntil !== null
      ? row.sealedUntil > now
      : false;
  return {
    id: row.id,
    kind: row.kind,
    to: row.toAddress,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    resentFrom: row.resentFrom,
    resendableUntil: resendable ? (row.sealedUntil?.toISOString() ?? null) : null,
  };
}

/** A page of the e-mails sent, failed or waiting, newest first. */
export async function listEmails(
  db: Database,
  query: EmailLogQuery,
  now: Date,
): Promise<{ emails: EmailLogEntry[]; next: number | null }> {
  const limit = query.limit ?? LOG_PAGE_SIZE;
  const rows = await createOutboxRepository(db).listPage({
    status: query.status,
    toNormalized: query.to ? normalizeEmailAddress(query.to) : undefined,
    before: query.before,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  return {
    emails: page.map((row) => entryOf(row, now)),
    next: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  };
}

export type EmailActionResult =
  | { ok: true; email: EmailLogEntry }
  | {
      ok: false;
      code: 'EmailNotFound' | 'NotFailed' | 'NotDelivered' | 'ContentNotKept' | 'ResendLimit';
      message: string;
    };

const OUTBOX_ID = /^[1-9]\d{0,14}$/;

function parseId(id: string): number | undefined {
  return OUTBOX_ID.test(id) ? Number(id) : undefined;
}

const notFound = {
  ok: false,
  code: 'EmailNotFound',
  message: 'No e-mail has this id.',
} as const;

/**
 * Sends a failed e-mail again now: a fresh set of attempts, due at once. Audited as
 * `email.retried` with the reason; the address only in the event's details.
 */
export async function retryEmail(
  deps: { db: Database; clock: () => Date },
  context: AuditContext,
  id: string,
  reason: string,
): Promise<EmailActionResult> {
  const outboxId = parseId(id);
  if (outboxId === undefined) return notFound;
  return actingAs({ ...context, reason }, () =>
    deps.db.transaction(async (tx) => {
      const outbox = createOutboxRepository(tx);
      const before = await outbox.findById(outboxId);
      if (!before) return notFound;
      const now = deps.clock();
      const retried = await outbox.retryFailed(outboxId, now);
      if (!retried) {
        return {
          ok: false,
          code: 'NotFailed',
          message: `This e-mail is ${before.status}: only a failed one is retried. A sent one can be resent.`,
        } as const;
      }
      await recordAuditEvent(tx, {
        action: 'email.retried',
        targetType: 'email',
        targetId: String(outboxId),
        subjectEmail: before.toAddress,
        before: { status: before.status, attempts: before.attempts, lastError: before.lastError },
        after: { status: retried.status, attempts: retried.attempts },
      });
      return { ok: true, email: entryOf(retried, now) } as const;
    }),
  );
}

/**
 * Resends a delivered e-mail: a new outbox message with the same recipient, subject, bodies and
 * files (opened from the sealed copy) and a new Message-ID, pointing at the original. At most
 * {@link RESENDS_PER_ADDRESS_PER_DAY} resends to one address a day. Audited as `email.resent`.
 */
export async function resendEmail(
  deps: { db: Database; clock: () => Date; secretKey: string },
  context: AuditContext,
  id: string,
  reason: string,
): Promise<EmailActionResult> {
  const outboxId = parseId(id);
  if (outboxId === undefined) return notFound;
  return actingAs({ ...context, reason }, () =>
    deps.db.transaction(async (tx) => {
      const outbox = createOutboxRepository(tx);
      const original = await outbox.findById(outboxId);
      if (!original) return notFound;
      if (original.status !== 'sent') {
        return {
          ok: false,
          code: 'NotDelivered',
          message: `This e-mail is ${original.status}: only a delivered one is resent. A failed one can be retried.`,
        } as const;
      }
      const now = deps.clock();
      const content =
        original.sealedContent !== null &&
        original.sealedUntil !== null &&
        original.sealedUntil > now
          ? openContent(deps.secretKey, original.id, original.sealedContent)
          : undefined;
      if (!content) {
        return {
          ok: false,
          code: 'ContentNotKept',
          message:
            'Its content is no longer kept (sent more than 14 days ago, or before resends existed).',
        } as const;
      }
      const recent = await outbox.lockAndCountResendsTo(
        original.toAddressNormalized,
        new Date(now.getTime() - 86_400_000),
      );
      if (recent >= RESENDS_PER_ADDRESS_PER_DAY) {
        return {
          ok: false,
          code: 'ResendLimit',
          message: `This address was sent ${RESENDS_PER_ADDRESS_PER_DAY} resends in the last 24 hours; try again later.`,
        } as const;
      }
      const copy = await outbox.enqueueCopy(original, content, now);
      await recordAuditEvent(tx, {
        action: 'email.resent',
        targetType: 'email',
        targetId: String(original.id),
        subjectEmail: original.toAddress,
        before: { status: original.status, sentAt: original.sentAt },
        after: { resentAs: copy.id, kind: copy.kind },
      });
      return { ok: true, email: entryOf(copy, now) } as const;
    }),
  );
}
