import { randomUUID } from 'node:crypto';
import { and, eq, isNull, lte } from 'drizzle-orm';
import type { LicencePageView } from '#shared/contracts/licence-page.ts';
import { createLicenceRepository } from '#server/licensing/licences/licence-repository.ts';
import { attribute } from '#server/platform/audit/audit-context.ts';
import { recordAuditEvent } from '#server/platform/audit/audit-log-repository.ts';
import type { Database, Executor } from '#server/platform/db/database.ts';
import { customerViews } from '#server/platform/db/schema.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { readLicencePage } from './read-licence-page.ts';

/** How long an operator's view of a customer's page lasts (decision 236). */
export const VIEW_AS_MINUTES = 15;

export interface ViewAsDeps {
  db: Database;
  secretKey: string;
  publicBaseUrl: string;
  clock: () => Date;
}

type ViewRow = typeof customerViews.$inferSelect;

/** The end of a view, as an audit event: the operator ended it, or it expired (noted late). */
async function recordEnd(
  db: Executor,
  row: ViewRow,
  endKind: 'ended' | 'expired',
  endedAt: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [ended] = await tx
      .update(customerViews)
      .set({ endedAt, endKind })
      .where(and(eq(customerViews.id, row.id), isNull(customerViews.endedAt)))
      .returning();
    // Another request noted it first: one end event per view.
    if (!ended) return;
    await recordAuditEvent(tx, {
      action: 'operator.view_as_customer_ended',
      targetType: 'customer_view',
      targetId: row.id,
      subjectEmail: row.emailNormalized,
      after: { endKind, endedAt: endedAt.toISOString(), expiresAt: row.expiresAt.toISOString() },
    });
  });
}

/** Notes the expiry of the operator's views that ran out unended (at their next use). */
async function noteExpiredViews(deps: ViewAsDeps, operatorId: string, now: Date): Promise<void> {
  const expired = await deps.db
    .select()
    .from(customerViews)
    .where(
      and(
        eq(customerViews.operatorId, operatorId),
        isNull(customerViews.endedAt),
        lte(customerViews.expiresAt, now),
      ),
    );
  for (const row of expired) await recordEnd(deps.db, row, 'expired', row.expiresAt);
}

export type StartViewResult =
  { ok: true; id: string; expiresAt: Date } | { ok: false; code: 'CustomerNotFound' };

/**
 * "View as customer" (issue 42 item 7, decision 236): a read-only view of the licence page of an
 * address holding a licence, for 15 minutes, bound to this operator. Audited at its start
 * (`operator.viewed_as_customer`, with the reason) and its end.
 */
export async function startCustomerView(
  deps: ViewAsDeps,
  operator: { id: string },
  input: { address: string; reason: string },
): Promise<StartViewResult> {
  const now = deps.clock();
  await noteExpiredViews(deps, operator.id, now);
  const emailNormalized = normalizeEmailAddress(input.address);
  const [licence] = await createLicenceRepository(deps.db).findByNormalizedEmail(emailNormalized);
  if (!licence) return { ok: false, code: 'CustomerNotFound' };
  const id = randomUUID();
  const expiresAt = new Date(now.getTime() + VIEW_AS_MINUTES * 60_000);
  attribute({ reason: input.reason });
  await deps.db.transaction(async (tx) => {
    await tx.insert(customerViews).values({
      id,
      operatorId: operator.id,
      emailNormalized,
      reason: input.reason,
      startedAt: now,
      expiresAt,
    });
    await recordAuditEvent(tx, {
      action: 'operator.viewed_as_customer',
      targetType: 'customer_view',
      targetId: id,
      subjectEmail: emailNormalized,
      after: { customer: emailNormalized, expiresAt: expiresAt.toISOString() },
    });
  });
  return { ok: true, id, expiresAt };
}

export interface CustomerViewing {
  viewAs: { id: string; address: string; reason: string; expiresAt: string };
  view: LicencePageView;
}

export type ReadViewResult =
  { ok: true; viewing: CustomerViewing } | { ok: false; code: 'ViewNotFound' | 'ViewEnded' };

/** The operator's own live view, or why not: another operator's view is unknown. */
async function liveView(
  deps: ViewAsDeps,
  operatorId: string,
  viewId: string,
): Promise<{ ok: true; row: ViewRow } | { ok: false; code: 'ViewNotFound' | 'ViewEnded' }> {
  const now = deps.clock();
  const [row] = await deps.db
    .select()
    .from(customerViews)
    .where(and(eq(customerViews.id, viewId), eq(customerViews.operatorId, operatorId)));
  if (!row) return { ok: false, code: 'ViewNotFound' };
  if (row.endedAt) return { ok: false, code: 'ViewEnded' };
  if (row.expiresAt <= now) {
    await recordEnd(deps.db, row, 'expired', row.expiresAt);
    return { ok: false, code: 'ViewEnded' };
  }
  return { ok: true, row };
}

/** The page the customer would see now, read-only, while the view lasts. */
export async function readCustomerView(
  deps: ViewAsDeps,
  operatorId: string,
  viewId: string,
): Promise<ReadViewResult> {
  const live = await liveView(deps, operatorId, viewId);
  if (!live.ok) return live;
  const { row } = live;
  const view = await readLicencePage(deps, {
    emailNormalized: row.emailNormalized,
    expiresAt: row.expiresAt,
  });
  return {
    ok: true,
    viewing: {
      viewAs: {
        id: row.id,
        address: view.email,
        reason: row.reason,
        expiresAt: row.expiresAt.toISOString(),
      },
      view,
    },
  };
}

/** Checks a view is the operator's and live (for refusing its writes with the right answer). */
export async function checkCustomerView(
  deps: ViewAsDeps,
  operatorId: string,
  viewId: string,
): Promise<{ ok: true } | { ok: false; code: 'ViewNotFound' | 'ViewEnded' }> {
  const live = await liveView(deps, operatorId, viewId);
  return live.ok ? { ok: true } : live;
}

/** "End view": audited now; a view already over answers as ended. */
export async function endCustomerView(
  deps: ViewAsDeps,
  operatorId: string,
  viewId: string,
): Promise<{ ok: true } | { ok: false; code: 'ViewNotFound' | 'ViewEnded' }> {
  const live = await liveView(deps, operatorId, viewId);
  if (!live.ok) return live;
  await recordEnd(deps.db, live.row, 'ended', deps.clock());
  return { ok: true };
}
