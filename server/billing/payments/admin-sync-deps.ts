import type { Database } from '#server/platform/db/database.ts';
import type { CommandSettings } from '#server/platform/commands/command.ts';
import { createLogger } from '#server/platform/logger.ts';
import { createPaymentProvider, type PaymentSettings } from './create-payment-provider.ts';
import type { BankAccounts } from '../bank-accounts.ts';
import type { SyncDeps } from '../subscriptions/sync-subscription.ts';

/** What an operator command that raises payment events reads of the environment. */
export interface AdminSyncSettings extends PaymentSettings, CommandSettings {
  ACCOUNT_API_URL?: string;
  /** VIES's REST API, asked when an approved invoice order is created (decision 210). */
  VIES_URL: string;
  bankAccounts: BankAccounts;
}

/** The sync as the server runs it, for what an operator command asks of the provider. */
export async function adminSyncDeps(
  db: Database,
  env: AdminSyncSettings,
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
    bankAccounts: env.bankAccounts,
  };
}
