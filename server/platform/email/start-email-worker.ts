import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { Job } from '../jobs/job.ts';
import {
  createOutboxDelivery,
  OUTBOX_FALLBACK_POLL_MS,
  outboxDeliveryJob,
  type DeliveryOutcome,
} from './deliver-outbox.ts';
import { createMailTransport } from './mail-transport.ts';
import { createOutboxRepository } from './outbox-repository.ts';

/**
 * The process's outbox job: SMTP or `.eml` files per the environment, woken by `NOTIFY` when an
 * e-mail is queued and polling every `OUTBOX_FALLBACK_POLL_MS` besides (decision 238).
 */
export function emailOutboxJob(options: {
  db: Database;
  /**
   * No other process can use this database (the embedded one, behind its data-dir lock): any
   * lease found at start is a dead process's and is released at once (decision 111).
   */
  exclusive: boolean;
  env: { SMTP_URL?: string; DATA_DIR: string; MAIL_FROM: string };
  clock: () => Date;
  logger: Logger;
  /** Told the outcome of every delivery attempt (`/metrics`). */
  onOutcome?: (outcome: DeliveryOutcome) => void;
  /** Seals a sent message's content for a resend (decision 235). */
  secretKey: string;
}): Job {
  const { db, env, clock, exclusive, onOutcome, secretKey } = options;
  const logger = options.logger.child({ worker: 'outbox' });
  const transport = createMailTransport({ smtpUrl: env.SMTP_URL, dataDir: env.DATA_DIR }, logger);
  const delivery = createOutboxDelivery({
    db,
    transport,
    from: env.MAIL_FROM,
    clock,
    logger,
    onOutcome,
    secretKey,
  });
  const released = exclusive ? createOutboxRepository(db).releaseAllLeases() : Promise.resolve(0);
  void released.then(
    (count) =>
      logger.info({ transport: transport.name, released: count }, 'e-mail outbox worker started'),
    (error: unknown) => logger.error({ err: error }, 'could not release the outbox leases'),
  );
  return outboxDeliveryJob(delivery, logger, {
    everyMs: OUTBOX_FALLBACK_POLL_MS,
    ready: released,
    onStop: () => transport.close(),
  });
}
