import { missingBankAccountsNotice } from './billing/bank-accounts.ts';
import { adminCommandRunner } from './admin/admin-command-runner.ts';
import { startAdminSocket } from './admin/serve-admin-socket.ts';
import { createBackupTaker } from './backup/take-backup.ts';
import { makeDataDirPrivate } from './platform/data-dir/make-data-dir-private.ts';
import { openDatabase, type DatabaseHandle } from './platform/db/client.ts';
import type { AppDeps } from './deps.ts';
import { assembleDeps } from './assemble-deps.ts';
import type { Env } from './env.ts';
import { signPublishedReleases } from './licensing/releases/sign-release.ts';
import { OUTBOX_CHANNEL, OUTBOX_JOB } from './platform/email/deliver-outbox.ts';
import { startJobs, type JobRunner } from './platform/jobs/start-jobs.ts';
import { droppedLogLines, type Logger } from './platform/logger.ts';
import { securityTxtExpiryProblem } from './features/security-contact/security-txt.ts';
import { domains } from './domains.ts';
import { loadOrCreateSecret } from './platform/secrets.ts';
import { dataDirRefusal, StartupRefusal } from './platform/startup/startup-refusal.ts';

/** The one assembly of the app's dependencies (decision 232), where the server's callers find it. */
export { assembleDeps } from './assemble-deps.ts';

export interface Runtime {
  deps: AppDeps;
  /**
   * Starts every domain's background jobs (e-mail outbox, licence lifecycle, rate-limit flushing
   * and sweeping, the signing key's record of use, scheduled backups and, on the embedded
   * database, the admin socket); the stopper waits for them and writes the rate-limit hits
   * still in memory.
   */
  startWorkers(): () => Promise<void>;
  close(): Promise<void>;
}

/**
 * Closes DATA_DIR to other users, opens the database (applying migrations) and resolves secrets:
 * everything before listening. Throws `DataDirNotPrivate` when DATA_DIR stays open (decision 157)
 * and a `StartupRefusal` naming DATA_DIR or DATABASE_URL when either cannot be used (decision 217).
 */
export async function createRuntime(env: Env, logger: Logger): Promise<Runtime> {
  // Created only when this process writes there: the embedded database or e-mails as files.
  // A folder it may not use is a refusal naming DATA_DIR, not a stack trace (decision 217).
  await makeDataDirPrivate(env.DATA_DIR, {
    create: !env.DATABASE_URL || env.mail.transport === 'file',
  }).catch((error: unknown) => {
    throw dataDirRefusal(error, env.DATA_DIR);
  });
  const database: DatabaseHandle = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    directUrl: env.DATABASE_DIRECT_URL,
    timeouts: env.databaseTimeouts,
    dataDir: env.DATA_DIR,
    poolMax: env.DATABASE_POOL_MAX,
    onLockLost: (error) => {
      // Another process may open the embedded database now: writing on would corrupt it.
      logger.fatal({ err: error }, 'lost the lock on the embedded database: stopping at once');
      process.exit(1);
    },
  }).catch((error: unknown) => {
    if (!env.DATABASE_URL || error instanceof StartupRefusal) {
      throw dataDirRefusal(error, env.DATA_DIR);
    }
    const reason = error instanceof Error ? error.message : String(error);
    // Behind a pooler the direct URL is opened first (migrations): name both.
    const variables =
      env.DATABASE_DIRECT_URL === env.DATABASE_URL
        ? 'DATABASE_URL'
        : 'DATABASE_URL or DATABASE_DIRECT_URL';
    throw new StartupRefusal(
      'DATABASE_URL',
      `${variables}: the PostgreSQL database cannot be opened (${reason}): check that the server runs` +
        ` and that the URL${variables === 'DATABASE_URL' ? '' : 's'} name${variables === 'DATABASE_URL' ? 's' : ''} a user and a database it has`,
      { cause: error },
    );
  });
  logger.info({ database: database.kind }, 'database ready');
  const staleSecurityTxt = securityTxtExpiryProblem(env.SECURITY_TXT_EXPIRES, new Date());
  if (staleSecurityTxt) {
    logger.warn({ expires: env.SECURITY_TXT_EXPIRES.toISOString() }, staleSecurityTxt);
  }
  // One line when pay by invoice is not offered in a currency for want of an account (decision 218).
  const noInvoice = missingBankAccountsNotice(env.bankAccounts);
  if (noInvoice) logger.warn(noInvoice);
  let jobs: JobRunner | undefined;
  const deps = await assembleDeps({
    env,
    database,
    logger,
    clock: () => new Date(),
    secretKey: await loadOrCreateSecret(database.db, 'secret_key', env.SECRET_KEY),
    wakeOutbox: () => jobs?.wake(OUTBOX_JOB),
  });
  // The process's standard output, which this service's logger writes to (decision 207).
  deps.metrics.watchLogOutput(droppedLogLines);
  // Releases published before signing existed get their signature now (decision 140).
  await signPublishedReleases(database.db, deps.releaseSigningKey, deps.clock());
  return {
    deps,
    startWorkers() {
      const stoppers: Array<() => Promise<void>> = [];
      // One queue for every backup this process writes (decision 130).
      const backupTaker = createBackupTaker({
        db: database.db,
        kind: database.kind,
        clock: deps.clock,
        dataDir: env.DATA_DIR,
      });
      if (database.kind === 'pglite') {
        const socket = startAdminSocket({
          dataDir: env.DATA_DIR,
          taker: backupTaker,
          logger,
          runCommand: adminCommandRunner(deps),
        });
        stoppers.push(() => socket.stop());
      }
      // Every domain's jobs (decision 169) on one runner (decision 174); each says whether it
      // runs on every instance or once per period across them.
      const runner = startJobs(
        domains.flatMap((domain) => domain.jobs?.({ deps, backupTaker }) ?? []),
        {
          db: database.db,
          logger: logger.child({ worker: 'jobs' }),
          clock: deps.clock,
          exclusive: database.kind === 'pglite',
        },
      );
      jobs = runner;
      deps.metrics.watchJobs(runner.lastRuns);
      // Any process that queues an e-mail wakes every worker (decision 238); `undefined` (the
      // listening connection came back) may hide a missed one, which wakes it too.
      const unlistening = database
        .listen(OUTBOX_CHANNEL, () => runner.wake(OUTBOX_JOB))
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'cannot listen for queued e-mails; polling only');
          return async () => {};
        });
      stoppers.push(async () => {
        await (
          await unlistening
        )();
        await runner.stop();
      });
      return async () => {
        await Promise.all(stoppers.map((stop) => stop()));
      };
    },
    close: () => database.close(),
  };
}
