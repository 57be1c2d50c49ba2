import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type {
  ChangeRequestView,
  LicencePageChangeRequest,
} from '#shared/contracts/licence-page.ts';
import { createSubscriptionRepository } from '#server/billing/subscriptions/subscription-repository.ts';
import { createLicenceRepository } from '#server/licensing/licences/licence-repository.ts';
import { attribute, customerActor } from '#server/platform/audit/audit-context.ts';
import type { Database, Executor } from '#server/platform/db/database.ts';
import { subscriptionChangeRequests, subscriptions } from '#server/platform/db/schema.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import { changeRequestAnsweredEmail } from './emails/change-request-answered-email.ts';

export type ChangeRequestRow = typeof subscriptionChangeRequests.$inferSelect;

export function changeRequestView(row: ChangeRequestRow): ChangeRequestView {
  return {
    id: row.id,
    kind: row.kind,
    seats: row.seats,
    edition: row.edition,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    answeredAt: row.answeredAt?.toISOString() ?? null,
    answerReason: row.answerReason,
  };
}

/** The newest change request of each subscription named (for the licence page's reading). */
export async function newestChangeRequests(
  db: Executor,
  subscriptionIds: readonly string[],
): Promise<Map<string, ChangeRequestRow>> {
  if (subscriptionIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(subscriptionChangeRequests)
    .where(inArray(subscriptionChangeRequests.subscriptionId, [...subscriptionIds]))
    .orderBy(desc(subscriptionChangeRequests.createdAt));
  const newest = new Map<string, ChangeRequestRow>();
  for (const row of rows) if (!newest.has(row.subscriptionId)) newest.set(row.subscriptionId, row);
  return newest;
}

export type RequestChangeResult =
  | { ok: true; request: ChangeRequestRow }
  | { ok: false; code: 'LicenceNotFound' | 'NotPaidByInvoice' | 'ChangeRequestOpen' };

/**
 * "Request a change" (issue 42 item 6, decision 236): for a licence of the signed-in address
 * whose subscription is paid by invoice and has not ended. One open request per subscription —
 * the partial unique index decides, so two at once make one; the second is `ChangeRequestOpen`.
 * Audited (trigger) as `customer:<address>`.
 */
export async function requestChange(
  deps: { db: Database; clock: () => Date },
  emailNormalized: string,
  input: LicencePageChangeRequest,
): Promise<RequestChangeResult> {
  const licence = await createLicenceRepository(deps.db).findById(input.licenceId);
  if (!licence || licence.emailNormalized !== emailNormalized) {
    return { ok: false, code: 'LicenceNotFound' };
  }
  const subscription = await createSubscriptionRepository(deps.db).findByLicence(licence.id);
  if (!subscription || subscription.collection !== 'invoice' || subscription.endedAt) {
    return { ok: false, code: 'NotPaidByInvoice' };
  }
  attribute({ actor: customerActor(emailNormalized) });
  // In a transaction: the audit trigger reads the actor from the transaction's settings.
  const [row] = await deps.db.transaction((tx) =>
    tx
      .insert(subscriptionChangeRequests)
      .values({
        id: randomUUID(),
        provider: subscription.provider,
        subscriptionId: subscription.subscriptionId,
        licenceId: licence.id,
        emailNormalized,
        kind: input.kind,
        seats: input.kind === 'seats' ? (input.seats ?? null) : null,
        edition: input.kind === 'plan' ? (input.edition ?? null) : null,
        message: input.message ? input.message : null,
        createdAt: deps.clock(),
      })
      .onConflictDoNothing()
      .returning(),
  );
  if (!row) return { ok: false, code: 'ChangeRequestOpen' };
  return { ok: true, request: row };
}

/** A change request as finance sees it in the approvals queue. */
export interface ChangeRequestQueueItem extends ChangeRequestView {
  customer: string;
  licenceId: string | null;
  message: string | null;
  answeredBy: string | null;
  subscription: {
    provider: string;
    subscriptionId: string;
    edition: string | null;
    quantity: number | null;
    billingPeriod: string | null;
    status: string | null;
  };
}

/** The console's queue: open requests oldest first, or answered ones newest first. */
export async function listChangeRequests(
  db: Executor,
  status: 'open' | 'done' | 'declined',
  limit = 100,
): Promise<ChangeRequestQueueItem[]> {
  const rows = await db
    .select({ request: subscriptionChangeRequests, subscription: subscriptions })
    .from(subscriptionChangeRequests)
    .leftJoin(
      subscriptions,
      and(
        eq(subscriptions.provider, subscriptionChangeRequests.provider),
        eq(subscriptions.subscriptionId, subscriptionChangeRequests.subscriptionId),
      ),
    )
    .where(eq(subscriptionChangeRequests.status, status))
    .orderBy(
      status === 'open'
        ? subscriptionChangeRequests.createdAt
        : desc(subscriptionChangeRequests.answeredAt),
    )
    .limit(limit);
  return rows.map(({ request, subscription }) => ({
    ...changeRequestView(request),
    customer: request.emailNormalized,
    licenceId: request.licenceId,
    message: request.message,
    answeredBy: request.answeredBy,
    subscription: {
      provider: request.provider,
      subscriptionId: request.subscriptionId,
      edition: subscription?.edition ?? null,
      quantity: subscription?.quantity ?? null,
      billingPeriod: subscription?.billingPeriod ?? null,
      status: subscription?.status ?? null,
    },
  }));
}

export type AnswerChangeRequestResult =
  | { ok: true; request: ChangeRequestRow; emailed: boolean }
  | { ok: false; code: 'ChangeRequestNotFound' | 'ChangeRequestAnswered' };

/**
 * Finance's answer (decision 236): `done` says the change was made — by the operator, with the
 * billing operations (the subscription itself is not changed here) — `declined` says it was not;
 * either with a reason the customer reads in the e-mail queued in the same transaction, to the
 * licence's own address. An answered request is not answered again.
 */
export async function answerChangeRequest(
  deps: { db: Database; clock: () => Date; publicBaseUrl: string },
  input: { id: string; outcome: 'done' | 'declined'; reason: string; answeredBy: string },
): Promise<AnswerChangeRequestResult> {
  const now = deps.clock();
  attribute({ reason: input.reason });
  return deps.db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(subscriptionChangeRequests)
      .where(eq(subscriptionChangeRequests.id, input.id))
      .for('update');
    if (!existing) return { ok: false, code: 'ChangeRequestNotFound' };
    if (existing.status !== 'open') return { ok: false, code: 'ChangeRequestAnswered' };
    const [request] = await tx
      .update(subscriptionChangeRequests)
      .set({
        status: input.outcome,
        answeredAt: now,
        answeredBy: input.answeredBy,
        answerReason: input.reason,
      })
      .where(eq(subscriptionChangeRequests.id, input.id))
      .returning();
    if (!request) return { ok: false, code: 'ChangeRequestNotFound' };
    const licence = request.licenceId
      ? await createLicenceRepository(tx).findById(request.licenceId)
      : undefined;
    if (licence) {
      const email = changeRequestAnsweredEmail({
        email: licence.email,
        kind: request.kind,
        seats: request.seats,
        edition: request.edition,
        outcome: input.outcome,
        reason: input.reason,
        publicBaseUrl: deps.publicBaseUrl,
      });
      await createOutboxRepository(tx).enqueue(
        { ...email, kind: 'change-request-answered', to: licence.email },
        now,
      );
    }
    return { ok: true, request, emailed: Boolean(licence) };
  });
}
