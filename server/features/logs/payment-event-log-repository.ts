import { and, desc, eq, gt, isNull, lt, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '#server/platform/db/database.ts';
import { paymentEventOutcomes, paymentEvents } from '#server/platform/db/schema.ts';
import { LOG_PAGE_MAX, LOG_PAGE_SIZE, logCursor } from './log-page.ts';

/**
 * What the event log filters by (decision 235): an outcome, `duplicate` (delivered more than once)
 * or `unknown` (recorded before outcomes were kept); an exact event type; a page cursor.
 */
export const eventLogStatuses = [...paymentEventOutcomes, 'duplicate', 'unknown'] as const;

export const eventLogQuerySchema = z.strictObject({
  status: z.enum(eventLogStatuses).optional(),
  type: z
    .string()
    .regex(/^[a-z0-9_.]{1,100}$/, 'An event type such as invoice.paid')
    .optional(),
  before: logCursor.optional(),
  limit: z.coerce.number().int().min(1).max(LOG_PAGE_MAX).optional(),
});

export type EventLogQuery = z.infer<typeof eventLogQuerySchema>;

export interface EventLogEntry {
  seq: number;
  provider: string;
  eventId: string;
  type: string;
  subscriptionId: string | null;
  status: string;
  /** Deliveries after the first: the duplicates that arrived. */
  duplicates: number;
  error: string | null;
  receivedAt: string;
  lastReceivedAt: string | null;
}

function statusFilter(status: EventLogQuery['status']): SQL | undefined {
  if (status === undefined) return undefined;
  if (status === 'duplicate') return gt(paymentEvents.deliveries, 1);
  if (status === 'unknown') return isNull(paymentEvents.outcome);
  return eq(paymentEvents.outcome, status);
}

/** A page of received provider events, newest first. */
export async function listPaymentEvents(
  db: Executor,
  query: EventLogQuery,
): Promise<{ events: EventLogEntry[]; next: number | null }> {
  const limit = query.limit ?? LOG_PAGE_SIZE;
  const rows = await db
    .select()
    .from(paymentEvents)
    .where(
      and(
        statusFilter(query.status),
        query.type ? eq(paymentEvents.type, query.type) : undefined,
        query.before !== undefined ? lt(paymentEvents.seq, query.before) : undefined,
      ),
    )
    .orderBy(desc(paymentEvents.seq))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    events: page.map((row) => ({
      seq: row.seq,
      provider: row.provider,
      eventId: row.eventId,
      type: row.type,
      subscriptionId: row.subscriptionId,
      status: row.outcome ?? 'unknown',
      duplicates: row.deliveries - 1,
      error: row.error,
      receivedAt: row.processedAt.toISOString(),
      lastReceivedAt: row.lastReceivedAt?.toISOString() ?? null,
    })),
    next: rows.length > limit ? (page.at(-1)?.seq ?? null) : null,
  };
}
