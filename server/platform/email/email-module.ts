import type { DatabaseHandle } from '../db/client.ts';
import { defineDomain } from '../domain/define-domain.ts';
import type { Logger } from '../logger.ts';
import type { DeliveryOutcome, OutboxWorker } from './deliver-outbox.ts';
import { startEmailWorker } from './start-email-worker.ts';

interface EmailJobContext {
  deps: {
    database: DatabaseHandle;
    env: Parameters<typeof startEmailWorker>[0]['env'];
    clock: () => Date;
    logger: Logger;
    metrics: { outboxDelivered(outcome: DeliveryOutcome): void };
  };
  /** Lets `deps.wakeOutbox` nudge this worker after an e-mail was queued. */
  attachOutboxWorker(worker: OutboxWorker): void;
}

/** The e-mail outbox: its delivery worker and the `outbox` commands. */
export const emailDomain = defineDomain<never, EmailJobContext>({
  name: 'email',
  adminCommands: async () => (await import('./outbox-admin-commands.ts')).outboxAdminCommands,
  jobs: [
    {
      name: 'email outbox',
      start({ deps, attachOutboxWorker }) {
        const worker = startEmailWorker({
          db: deps.database.db,
          exclusive: deps.database.kind === 'pglite',
          env: deps.env,
          clock: deps.clock,
          logger: deps.logger,
          onOutcome: deps.metrics.outboxDelivered,
        });
        attachOutboxWorker(worker);
        return () => worker.stop();
      },
    },
  ],
});
