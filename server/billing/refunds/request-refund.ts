import { z } from 'zod';
import { attribute, currentAuditContext } from '#server/platform/audit/audit-context.ts';
import { singleLineCheck } from '#shared/contracts/fields.ts';
import type { Currency } from '#shared/pricing/index.ts';
import type { SyncDeps } from '../subscriptions/sync-subscription.ts';
import { refundNeedsApproval } from './refund-approval.ts';
import {
  previewRefund,
  refundKey,
  refundPayment,
  REFUND_REASON_MAX_LENGTH,
  type RefundRefusalCode,
  type RefundRequest,
} from './refund-payment.ts';
import {
  createRefundRequestRepository,
  type RefundRequestRow,
} from './refund-request-repository.ts';

/**
 * Refunds asked for in the operator console (issue 41, decision 233). A refund at or below
 * `REFUND_APPROVAL_ABOVE` runs at once; one above it is stored and waits for a second operator
 * with `refund.approve`, never its requester. Either way the refund is decision 220's
 * (`refundPayment`), and the same form sent twice is one request and one refund.
 */

/** What the console's refund form sends; the amount in minor units, null or absent: the rest. */
export const refundFormSchema = z.strictObject({
  reference: z
    .string('Name the invoice or receipt: INV-YYYY-NNNNN, or Stripe’s number or id')
    .trim()
    .regex(
      /^[A-Za-z0-9_-]{1,64}$/,
      'Name the invoice or receipt: INV-YYYY-NNNNN, or Stripe’s number or id',
    ),
  amountMinor: z
    .number('The amount is in cents, a whole number')
    .int('The amount is in cents, a whole number')
    .positive('The amount must be more than 0')
    .max(100_000_000_000, 'The amount is too large')
    .nullable()
    .optional(),
  reason: z
    .string('A reason is required: it is printed on the credit note')
    .trim()
    .min(3, 'A reason is required: it is printed on the credit note')
    .max(REFUND_REASON_MAX_LENGTH, `The reason is at most ${REFUND_REASON_MAX_LENGTH} characters`)
    .check(singleLineCheck()),
});
export type RefundForm = z.infer<typeof refundFormSchema>;

export type RefundRequestRefusalCode =
  | RefundRefusalCode
  | 'RequestNotFound'
  | 'NotPending'
  /** The requester approving their own request. */
  | 'OwnRefundRequest';

export type RefundRequestRefusal = {
  ok: false;
  code: RefundRequestRefusalCode;
  message: string;
};

/** A request as the console shows it. */
export interface RefundRequestView {
  id: string;
  reference: string;
  amountMinor: number;
  currency: Currency;
  wholeRest: boolean;
  reason: string;
  status: RefundRequestRow['status'];
  requestedBy: string;
  requestedAt: string;
  reviewedBy: string | null;
  reviewedAt: string | null;
  rejectionReason: string | null;
  failure: string | null;
  creditNoteNumber: string | null;
  endedSubscription: string | null;
  refundedAt: string | null;
}

export interface RefundRequestDeps extends SyncDeps {
  /** `REFUND_APPROVAL_ABOVE` in minor units per currency. */
  approvalAboveMinor: Readonly<Record<Currency, number>>;
}

/** A request still `refunding` after this long was interrupted: sending the form again resumes it. */
const INTERRUPTED_AFTER_MS = 60_000;

/** Who acts: the actor of the current audit context (decision 224). */
const actorNow = () => currentAuditContext()?.actor ?? 'system:unattributed';

const requestOf = (form: RefundForm): RefundRequest => ({
  reference: form.reference,
  amountMinor: form.amountMinor ?? null,
  reason: form.reason,
});

export function refundRequestView(
  row: RefundRequestRow,
  emails: ReadonlyMap<string, string> = new Map(),
): RefundRequestView {
  const who = (actor: string | null) => (actor === null ? null : (emails.get(actor) ?? actor));
  return {
    id: row.id,
    reference: row.reference,
    amountMinor: row.amountMinor,
    currency: row.currency,
    wholeRest: row.wholeRest,
    reason: row.reason,
    status: row.status,
    requestedBy: who(row.requestedBy) ?? row.requestedBy,
    requestedAt: row.requestedAt.toISOString(),
    reviewedBy: who(row.reviewedBy),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    rejectionReason: row.rejectionReason,
    failure: row.failure,
    creditNoteNumber: row.creditNoteNumber,
    endedSubscription: row.endedSubscription,
    refundedAt: row.refundedAt?.toISOString() ?? null,
  };
}

/** Makes the refund of a request taken for it (`refunding`): refunded, or failed with the provider's why. */
async function carryOut(
  deps: SyncDeps,
  row: RefundRequestRow,
): Promise<{ ok: true; row: RefundRequestRow } | RefundRequestRefusal> {
  const repository = createRefundRequestRepository(deps.db);
  const result = await refundPayment(deps, {
    reference: row.reference,
    amountMinor: row.amountMinor,
    reason: row.reason,
  });
  if (!result.ok) {
    await repository.markFailed(row.id, result.detail);
    return { ok: false, code: result.code, message: result.detail };
  }
  const done = await repository.markRefunded(row.id, {
    at: deps.clock(),
    creditNoteNumber: result.creditNote.number,
    endedSubscription: result.endedSubscription,
  });
  return { ok: true, row: done ?? row };
}

/**
 * The console's refund: checked as `refundPayment` checks it (unknown document, unpaid, more than
 * the rest: nothing stored), then run at once or stored to wait for approval. The same form
 * (document, amount, reason) sent again answers with the first request (`replayed`).
 */
export async function requestRefund(
  deps: RefundRequestDeps,
  form: RefundForm,
): Promise<{ ok: true; replayed: boolean; request: RefundRequestRow } | RefundRequestRefusal> {
  const repository = createRefundRequestRepository(deps.db);
  const request = requestOf(form);
  const key = refundKey(request);
  attribute({ reason: request.reason });

  const replay = async (row: RefundRequestRow) => {
    const interrupted =
      row.status === 'refunding' &&
      deps.clock().getTime() - (row.reviewedAt ?? row.requestedAt).getTime() > INTERRUPTED_AFTER_MS;
    if (!interrupted) return { ok: true, replayed: true, request: row } as const;
    const resumed = await carryOut(deps, row);
    return resumed.ok ? ({ ok: true, replayed: true, request: resumed.row } as const) : resumed;
  };

  const live = await repository.findLive(key);
  if (live) return replay(live);

  const preview = await previewRefund(deps, request);
  if (!preview.ok) return { ok: false, code: preview.code, message: preview.detail };
  const { reference, amountMinor, currency } = preview.preview;
  const waits = refundNeedsApproval(deps.approvalAboveMinor, { amountMinor, currency });
  const row = await repository.insert({
    reference,
    amountMinor,
    currency,
    wholeRest: request.amountMinor === null,
    reason: request.reason,
    idempotencyKey: key,
    status: waits ? 'pending' : 'refunding',
    requestedBy: actorNow(),
    requestedAt: deps.clock(),
  });
  if (!row) {
    // The same form, sent again while this one was checked: the first one's request.
    const first = await repository.findLive(key);
    if (first) return { ok: true, replayed: true, request: first };
    throw new Error('a refund request conflicted with one that is gone');
  }
  if (waits) return { ok: true, replayed: false, request: row };
  const done = await carryOut(deps, row);
  return done.ok ? { ok: true, replayed: false, request: done.row } : done;
}

async function refusalFor(
  deps: Pick<SyncDeps, 'db'>,
  id: string,
  reviewer: string,
): Promise<RefundRequestRefusal> {
  const row = await createRefundRequestRepository(deps.db).findById(id);
  if (!row) return { ok: false, code: 'RequestNotFound', message: `No refund request ${id}.` };
  if (row.status !== 'pending') {
    return {
      ok: false,
      code: 'NotPending',
      message: `Refund request ${id} is ${row.status}, not waiting for approval.`,
    };
  }
  if (row.requestedBy === reviewer) {
    return {
      ok: false,
      code: 'OwnRefundRequest',
      message: 'You asked for this refund: another operator who may approve refunds approves it.',
    };
  }
  throw new Error(`refund request ${id} could not be claimed`);
}

/**
 * A second operator approves a waiting refund: it is made now. Of two approvals at once, one; the
 * requester cannot approve their own; a provider failure puts it back in the queue.
 */
export async function approveRefundRequest(
  deps: SyncDeps,
  id: string,
): Promise<{ ok: true; request: RefundRequestRow } | RefundRequestRefusal> {
  const reviewer = actorNow();
  const repository = createRefundRequestRepository(deps.db);
  const claimed = await repository.claim(id, reviewer, deps.clock());
  if (!claimed) return refusalFor(deps, id, reviewer);
  attribute({ reason: claimed.reason });
  try {
    const done = await carryOut(deps, claimed);
    return done.ok ? { ok: true, request: done.row } : done;
  } catch (error) {
    await repository.release(id);
    throw error;
  }
}

/** A waiting refund is rejected with a reason (its requester may withdraw it so too): nothing is refunded. */
export async function rejectRefundRequest(
  deps: Pick<SyncDeps, 'db' | 'clock'>,
  id: string,
  reason: string,
): Promise<{ ok: true; request: RefundRequestRow } | RefundRequestRefusal> {
  const reviewer = actorNow();
  attribute({ reason });
  const row = await createRefundRequestRepository(deps.db).reject(id, {
    by: reviewer,
    at: deps.clock(),
    reason,
  });
  if (row) return { ok: true, request: row };
  const refusal = await createRefundRequestRepository(deps.db).findById(id);
  return refusal
    ? {
        ok: false,
        code: 'NotPending',
        message: `Refund request ${id} is ${refusal.status}, not waiting for approval.`,
      }
    : { ok: false, code: 'RequestNotFound', message: `No refund request ${id}.` };
}
