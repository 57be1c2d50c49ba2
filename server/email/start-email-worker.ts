import type { Database } from '../db/client.ts';
import type { Env } from '../env.ts';
import type { Logger } from '../logger.ts';
import { createOutboxDelivery, startOutboxWorker, type OutboxWorker } from './deliver-outbox.ts';
import { createMailTransport } from './mail-transport.ts';

/** The process's outbox worker: SMTP or `.eml` files per the environment, polling every second. */
export function startEmailWorker(options: {
  db: Database;
  env: Pick<Env, 'SMTP_URL' | 'DATA_DIR' | 'MAIL_FROM'>;
  clock: () => Date;
  logger: Logger;
}): OutboxWorker {
  const { db, env, clock } = options;
  const logger = options.logger.child({ worker: 'outbox' });
  const transport = createMailTransport({ smtpUrl: env.SMTP_URL, dataDir: env.DATA_DIR }, logger);
  const delivery = createOutboxDelivery({ db, transport, from: env.MAIL_FROM, clock, logger });
  const worker = startOutboxWorker(delivery, logger);
  logger.info({ transport: transport.name }, 'e-mail outbox worker started');
  return {
    nudge: worker.nudge,
    async stop() {
      await worker.stop();
      transport.close();
    },
  };
}
