import type { Database } from '#server/platform/db/database.ts';
import type { Env } from '#server/env.ts';
import { createLogger } from '#server/platform/logger.ts';
import { createPaymentProvider } from './create-payment-provider.ts';
import type { SyncDeps } from '../subscriptions/sync-subscription.ts';

/** The sync as the server runs it, for what an operator command asks of the provider. */
export async function adminSyncDeps(
  db: Database,
  env: Env,
  now: () => Date,
  secretKey: string,
): Promise<SyncDeps> {
  const logger = createLogger('warn');
  return {
    db,
    payments: await createPaymentProvider({ env, db, clock: now, logger }),
    clock: now,
    secretKey,
    publicBaseUrl: env.PUBLIC_BASE_URL,
    accountBaseUrl: env.ACCOUNT_API_URL ?? env.PUBLIC_BASE_URL,
    logger,
    // The running server's outbox worker picks the e-mails up on its next round.
    wakeOutbox: () => undefined,
  };
}
