import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { Job } from '../jobs/job.ts';
import { maskAddressesIn } from './mask-address.ts';
import { RESEND_WINDOW_DAYS, sealContent } from './sealed-content.ts';
import type { MailTransport } from './outgoing-email.ts';
import { attachmentsOf, createOutboxRepository, type OutboxRow } from './outbox-repository.ts';

export interface OutboxDeliveryOptions {
  db: Database;
  transport: MailTransport;
  from: string;
  clock: () => Date;
  logger: Logger;
  /** Messages claimed per round trip. */
  batchSize?: number;
  /**
   * How long a claim holds without word from its worker; the worker renews it every third of
   * that while it sends, so only a dead worker's claims run out (decision 111).
   */
  leaseMs?: number;
  /** Messages of a batch sent at the same time (separate SMTP connections). */
  concurrency?: number;
  /** Attempts before a message is given up and marked failed. */
  maxAttempts?: number;
  /**
   * How long this worker must have reached the database without a failure before it takes over
   * another worker's claim whose lease ran out (decision 194): after an outage, every sender gets
   * this long to record what it sent meanwhile.
   */
  takeOverAfterMs?: number;
  /** Told the outcome of every attempt (`/metrics`). */
  onOutcome?: (outcome: DeliveryOutcome) => void;
  /**
   * The instance secret: a sent message's content is kept sealed with it for a resend from the
   * console (decision 235). Without it, nothing is kept.
   */
  secretKey?: string;
}

export interface DeliveryReport {
  sent: number;
  retrying: number;
  failed: number;
}

export type DeliveryOutcome = keyof DeliveryReport;

const FIRST_RETRY_MS = 10_000;
/** A claim not renewed for this long belongs to a dead worker and is offered again. */
export const OUTBOX_LEASE_MS = 15_000;
/**
 * After an outage, a worker waits this long on a reachable database before taking over claims
 * whose lease ran out: their senders record what they sent within a round or two (decision 194).
 */
export const OUTBOX_TAKE_OVER_AFTER_MS = 10_000;
const MAX_RETRY_MS = 60 * 60_000;

/** Exponential backoff: 10 s, 20 s, 40 s … capped at one hour (decision 052). */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

/** Mailbox-level rejections that no retry will fix. */
function isPermanent(error: unknown): boolean {
  const code: unknown =
    typeof error === 'object' && error !== null ? Reflect.get(error, 'responseCode') : undefined;
  return typeof code === 'number' && code >= 550 && code <= 553;
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 1000);
}

/** `describe` for the log: a relay's answer often names the recipient (decision 159). */
function describeForLog(error: unknown): string {
  return maskAddressesIn(describe(error));
}

/**
 * Delivers due outbox messages once. Safe to run in several processes on one database: each
 * message is claimed by exactly one worker (row locks with SKIP LOCKED plus a lease).
 */
export function createOutboxDelivery(options: OutboxDeliveryOptions) {
  const { db, transport, from, clock, logger, onOutcome } = options;
  const batchSize = options.batchSize ?? 10;
  const leaseMs = options.leaseMs ?? OUTBOX_LEASE_MS;
  const maxAttempts = options.maxAttempts ?? 20;
  const concurrency = options.concurrency ?? 4;
  const takeOverAfterMs = options.takeOverAfterMs ?? OUTBOX_TAKE_OVER_AFTER_MS;
  const outbox = createOutboxRepository(db);
  /**
   * Since when every database call of this worker has succeeded; undefined after a failure until
   * the next success. Claims in doubt are taken over only after `takeOverAfterMs` of it. A worker
   * that has never been cut off starts "long ago": a replacement for a crashed instance takes its
   * claims over as soon as their lease lapses, as before (decision 194).
   */
  let reachableSince: number | undefined = Number.NEGATIVE_INFINITY;
  const reached = () => {
    reachableSince ??= clock().getTime();
  };
  const unreachable = () => {
    reachableSince = undefined;
  };
  /**
   * Outcomes decided but not yet written (the database was away): a message the relay accepted
   * stays here until its record succeeds, and no new claim is made before that, so an outage never
   * makes this process send a message twice (decision 132).
   */
  const unrecorded = new Map<number, { row: OutboxRow; write: () => Promise<boolean> }>();
  /** Set when a record fails: the rest of the batch waits rather than be sent while unrecordable. */
  let recordFailed = false;

  /**
   * Writes an attempt's outcome (or gives back an unattempted claim), or keeps it to be written
   * before the next claim. `write` resolves false when the claim was no longer this worker's.
   */
  async function record(row: OutboxRow, write: () => Promise<boolean>): Promise<void> {
    try {
      noteLostClaim(row, await write());
      reached();
    } catch (error) {
      unreachable();
      unrecorded.set(row.id, { row, write });
      recordFailed = true;
      logger.warn(
        { outboxId: row.id, kind: row.kind, err: describeForLog(error) },
        'could not record an e-mail outcome; kept to record before the next claim',
      );
    }
  }

  /** A claim taken over by another worker: the message may go out twice (same Message-ID). */
  function noteLostClaim(row: OutboxRow, held: boolean): void {
    if (held) return;
    logger.warn(
      { outboxId: row.id, kind: row.kind },
      'an outbox claim was taken over before its outcome was recorded',
    );
  }

  /** Writes the outcomes kept during an outage, oldest first; throws while the database is away. */
  async function recordKept(): Promise<void> {
    for (const [id, { row, write }] of unrecorded) {
      let held: boolean;
      try {
        held = await write();
      } catch (error) {
        unreachable();
        throw error;
      }
      reached();
      noteLostClaim(row, held);
      unrecorded.delete(id);
    }
    recordFailed = false;
  }

  async function deliverOne(row: OutboxRow, report: DeliveryReport): Promise<void> {
    try {
      await transport.send({
        messageId: row.messageId,
        kind: row.kind,
        from,
        to: row.toAddress,
        replyTo: row.replyTo ?? undefined,
        subject: row.subject,
        text: row.textBody ?? '',
        html: row.htmlBody ?? '',
        attachments: attachmentsOf(row),
        createdAt: row.createdAt,
      });
    } catch (error) {
      const message = describe(error);
      if (isPermanent(error) || row.attempts >= maxAttempts) {
        await record(row, () => outbox.markFailed(row, message));
        report.failed++;
        onOutcome?.('failed');
        logger.error(
          { outboxId: row.id, kind: row.kind, attempts: row.attempts, err: describeForLog(error) },
          'e-mail delivery failed for good',
        );
      } else {
        const next = new Date(clock().getTime() + retryDelayMs(row.attempts));
        await record(row, () => outbox.markForRetry(row, next, message));
        report.retrying++;
        onOutcome?.('retrying');
        logger.warn(
          {
            outboxId: row.id,
            kind: row.kind,
            attempts: row.attempts,
            retryAt: next,
            err: describeForLog(error),
          },
          'e-mail delivery failed, will retry',
        );
      }
      return;
    }
    // Counted once the relay has it, whether or not the record below succeeds at once.
    onOutcome?.('sent');
    report.sent++;
    const sentAt = clock();
    const sealed = options.secretKey
      ? {
          content: sealContent(options.secretKey, row.id, {
            textBody: row.textBody,
            htmlBody: row.htmlBody,
            attachments: row.attachments,
          }),
          until: new Date(sentAt.getTime() + RESEND_WINDOW_DAYS * 86_400_000),
        }
      : undefined;
    await record(row, () => outbox.markSent(row, sentAt, sealed));
    logger.info({ outboxId: row.id, kind: row.kind, transport: transport.name }, 'e-mail sent');
  }

  /**
   * Renews the leases of the claimed rows not yet done, every third of the lease, and keeps in
   * `lease.until` how long the last renewal holds them: no send starts in the last third of it.
   */
  function keepLeases(held: Set<OutboxRow>, lease: { until: number }): () => void {
    const timer = setInterval(() => {
      const until = clock().getTime() + leaseMs;
      outbox.extendLeases([...held], new Date(until)).then(
        () => {
          lease.until = until;
          reached();
        },
        (error: unknown) => {
          unreachable();
          logger.warn({ err: error }, 'could not extend outbox leases');
        },
      );
    }, leaseMs / 3);
    timer.unref();
    return () => clearInterval(timer);
  }

  return {
    /**
     * When a message can next be claimed by this worker: the earliest due retry or new message,
     * or the earliest lease to run out (a crashed instance's claims), but no earlier than this
     * worker may take claims over. Undefined when nothing is pending (decision 243).
     */
    async nextClaimAt(): Promise<Date | undefined> {
      const { dueAt, leaseEndsAt } = await outbox.nextClaimable();
      const takeOverAt =
        leaseEndsAt === undefined
          ? undefined
          : new Date(
              Math.max(
                leaseEndsAt.getTime(),
                (reachableSince ?? clock().getTime()) + takeOverAfterMs,
              ),
            );
      const times = [dueAt, takeOverAt].filter((at): at is Date => at !== undefined);
      if (times.length === 0) return undefined;
      return new Date(Math.min(...times.map((at) => at.getTime())));
    },
    /** Records the outcomes kept during an outage (at shutdown); throws while the database is away. */
    flush: recordKept,
    /** How many outcomes wait to be recorded (tests, logs). */
    unrecordedCount: () => unrecorded.size,
    /**
     * Sends everything due now, batch after batch, and reports what happened. When `stopping()`
     * turns true, the messages being sent are finished and the rest of the batch is released.
     */
    async deliverDue(stopping: () => boolean = () => false): Promise<DeliveryReport> {
      const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0 };
      while (!stopping()) {
        // What was sent during an outage is recorded first: until then its claim is not renewed,
        // and claiming again could offer it anew.
        await recordKept();
        const claimedAt = clock().getTime();
        // Claims whose lease ran out are taken over only once this worker has reached the
        // database for a while: right after an outage, their senders may still have to record
        // that they sent them (decision 194).
        const takeOver =
          reachableSince !== undefined && claimedAt - reachableSince >= takeOverAfterMs;
        let claimed: OutboxRow[];
        try {
          claimed = await outbox.claimDue(new Date(claimedAt), batchSize, leaseMs, { takeOver });
        } catch (error) {
          unreachable();
          throw error;
        }
        reached();
        const held = new Set(claimed);
        const untouched = [...claimed];
        const lease = { until: claimedAt + leaseMs };
        const stopKeeping = keepLeases(held, lease);
        // A send starts only while the lease holds for a while yet: once renewals fail, the rest
        // of the batch waits, so no message is handed to the relay after its claim may have lapsed.
        const leaseHolds = () => clock().getTime() < lease.until - leaseMs / 3;
        try {
          // A few SMTP conversations at once: a relay takes tens of milliseconds per message.
          const lane = async () => {
            while (untouched.length > 0 && !stopping() && !recordFailed && leaseHolds()) {
              const row = untouched.shift() as OutboxRow;
              await deliverOne(row, report);
              held.delete(row);
            }
          };
          await Promise.all(Array.from({ length: concurrency }, lane));
        } finally {
          stopKeeping();
          // Given back unattempted (kept to give back later if the database is away); a row whose
          // send was cut short keeps its lease until it runs out.
          // A release that finds nothing (given back already, its reply lost) sent nothing either.
          for (const row of untouched) {
            await record(row, () => outbox.release(row).then(() => true));
          }
        }
        if (claimed.length < batchSize || recordFailed || !leaseHolds()) break;
      }
      return report;
    },
  };
}

export type OutboxDelivery = ReturnType<typeof createOutboxDelivery>;

/**
 * The outbox poller as a job on every instance (decision 174): a delivery round every `everyMs`
 * and whenever woken after an e-mail was queued, once `ready` settles (leases released). When the
 * runner stops, the messages being sent are finished, the rest of their batch is released, and
 * what was sent during an outage gets one last try at being recorded.
 */
export function outboxDeliveryJob(
  delivery: OutboxDelivery,
  logger: Logger,
  options: { everyMs?: number; ready?: Promise<unknown>; onStop?: () => void } = {},
): Job {
  const ready = (options.ready ?? Promise.resolve()).catch(() => undefined);
  return {
    name: OUTBOX_JOB,
    scope: 'instance',
    everyMs: options.everyMs ?? 1000,
    firstAfterMs: 0,
    async run(signal) {
      await ready;
      const report = await delivery.deliverDue(() => signal.aborted);
      const rows = report.sent + report.retrying + report.failed;
      if (signal.aborted) return rows;
      // Sleep until the next message can be claimed rather than a whole fallback poll: a retry
      // coming due or a dead worker's lease running out is picked up on time (decision 243).
      const next = await delivery.nextClaimAt();
      return next === undefined ? rows : { rows, nextRunAt: next };
    },
    async onStop() {
      await delivery
        .flush()
        .catch((error: unknown) =>
          logger.error(
            { err: error, unrecorded: delivery.unrecordedCount() },
            'could not record the e-mails sent while the database was away',
          ),
        );
      options.onStop?.();
    },
  };
}

/** The outbox job's name: wake it after queueing an e-mail. */
export const OUTBOX_JOB = 'email-outbox';
/** The channel the outbox's insert trigger notifies (migration 0996, decision 238). */
export const OUTBOX_CHANNEL = 'email_outbox';
/**
 * How often the worker looks for due e-mails without being woken (decision 238): `NOTIFY` wakes it
 * when one is queued, so this only catches retries coming due and notifications lost while the
 * listening connection was down (which also wakes it when it comes back).
 */
export const OUTBOX_FALLBACK_POLL_MS = 15_000;
