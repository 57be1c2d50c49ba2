import type { ServicePorts } from '#server/platform/ports/service-ports.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { defineDomain } from '../domain/define-domain.ts';
import type { Logger } from '../logger.ts';
import type { DeliveryOutcome } from './deliver-outbox.ts';
import { emailOutboxJob } from './start-email-worker.ts';

interface EmailJobContext {
  deps: {
    database: DatabaseHandle;
    env: Parameters<typeof emailOutboxJob>[0]['env'];
    clock: () => Date;
    logger: Logger;
    metrics: { outboxDelivered(outcome: DeliveryOutcome): void };
    secretKey: string;
  };
}

/** The e-mail outbox: its poller on every instance (woken by `deps.wakeOutbox`) and the `outbox` commands. */
export const emailDomain = defineDomain<ServicePorts, EmailJobContext>({
  name: 'email',
  adminCommands: async () => (await import('./outbox-admin-commands.ts')).outboxAdminCommands,
  jobs: ({ deps }) => [
    emailOutboxJob({
      db: deps.database.db,
      exclusive: deps.database.kind === 'pglite',
      env: deps.env,
      clock: deps.clock,
      logger: deps.logger,
      onOutcome: deps.metrics.outboxDelivered,
      secretKey: deps.secretKey,
    }),
  ],
});
