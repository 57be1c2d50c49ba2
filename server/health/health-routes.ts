import { Hono, type Context } from 'hono';
import { createBackupStateRepository } from '../backup/backup-state-repository.ts';
import { pingDatabase } from '../platform/db/client.ts';
import type { AppDeps } from '../deps.ts';
import { mailSilentlyOnDisk, type MailTransportName } from '../env.ts';
import { createOutboxRepository } from '../platform/email/outbox-repository.ts';
import type { AppEnv } from '../platform/http/types.ts';
import { carriesMetricsToken, isLoopbackAddress } from '../metrics/metrics-access.ts';
import { clientIp } from '../platform/rate-limit/client-ip.ts';

/** Mail due longer than this means delivery is stuck (the trial e-mail is promised in minutes). */
export const OUTBOX_STUCK_AFTER_MS = 10 * 60_000;
/** A readiness probe answers within this, reachable or not. */
const DATABASE_CHECK_TIMEOUT_MS = 2_000;

export interface Readiness {
  status: 'ready' | 'unavailable';
  /** The process is shutting down: it finishes what it has, a balancer should send nothing new. */
  draining: boolean;
  database: { kind: 'pglite' | 'postgres'; reachable: boolean };
  /** Age of the oldest e-mail that is due and unsent, in seconds (0 when none). */
  outbox: { oldestDueSeconds: number | null; stuck: boolean };
  /**
   * Where e-mails go; `silentlyOnDisk`: to files on a public origin without MAIL_TRANSPORT=file,
   * which a server refuses to start with and is never ready with (decision 217).
   */
  mail: { transport: MailTransportName; silentlyOnDisk: boolean };
  /**
   * Age of the newest backup any instance or command wrote (null: none yet, or unknown), the
   * schedule's interval, and whether it is overdue: older than twice the interval (counted from
   * start-up while there is none). Reported, never a reason to be unready (decision 130).
   */
  backup: { newestAgeSeconds: number | null; everySeconds: number | null; overdue: boolean };
}

/** Twice the interval: one scheduled backup may fail and be retried before this shows. */
export const BACKUP_OVERDUE_INTERVALS = 2;

const everySecondsOf = (env: AppDeps['env']) =>
  env.BACKUP_EVERY === undefined ? null : Math.round(env.BACKUP_EVERY / 1000);

function backupReadiness(
  env: AppDeps['env'],
  now: Date,
  since: Date,
  newest: Date | undefined,
): Readiness['backup'] {
  const ageMs = newest ? Math.max(0, now.getTime() - newest.getTime()) : undefined;
  const waitedMs = ageMs ?? now.getTime() - since.getTime();
  return {
    newestAgeSeconds: ageMs === undefined ? null : Math.round(ageMs / 1000),
    everySeconds: everySecondsOf(env),
    overdue:
      env.BACKUP_EVERY !== undefined && waitedMs > BACKUP_OVERDUE_INTERVALS * env.BACKUP_EVERY,
  };
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref();
    }),
  ]);
}

/**
 * Checks the database and the outbox backlog (decision 112), and reports the newest backup's
 * age (decision 130). `since`: when this process started, for a schedule with no backup yet.
 */
export async function checkReadiness(deps: AppDeps, since = deps.clock()): Promise<Readiness> {
  const { database, clock } = deps;
  const now = clock();
  const draining = deps.draining?.() ?? false;
  const mail = { transport: deps.env.mail.transport, silentlyOnDisk: mailSilentlyOnDisk(deps.env) };
  try {
    const [oldest, newestBackup] = await within(
      (async () => {
        await pingDatabase(database.db);
        return Promise.all([
          createOutboxRepository(database.db).oldestDue(now),
          createBackupStateRepository(database.db).newestAt(),
        ]);
      })(),
      DATABASE_CHECK_TIMEOUT_MS,
    );
    const ageMs = oldest ? Math.max(0, now.getTime() - oldest.getTime()) : 0;
    const stuck = ageMs > OUTBOX_STUCK_AFTER_MS;
    return {
      status: stuck || draining || mail.silentlyOnDisk ? 'unavailable' : 'ready',
      draining,
      database: { kind: database.kind, reachable: true },
      outbox: { oldestDueSeconds: Math.round(ageMs / 1000), stuck },
      mail,
      backup: backupReadiness(deps.env, now, since, newestBackup),
    };
  } catch {
    return {
      status: 'unavailable',
      draining,
      database: { kind: database.kind, reachable: false },
      outbox: { oldestDueSeconds: null, stuck: false },
      mail,
      backup: { newestAgeSeconds: null, everySeconds: everySecondsOf(deps.env), overdue: false },
    };
  }
}

/**
 * Whether a request may read the health details (database kind, outbox, backup schedule and
 * age): a client on this machine (as `TRUST_PROXY` resolves it, so not anyone behind the proxy
 * on it) or one with the metrics token; everyone else gets the status only (decision 160).
 * In-process requests (tests) have no client address and count as this machine.
 */
function mayReadDetails(c: Context<AppEnv>, metricsToken: string | undefined): boolean {
  if (metricsToken && carriesMetricsToken(c.req.header('authorization'), metricsToken)) {
    return true;
  }
  const client = clientIp(c);
  return client === 'unknown' || isLoopbackAddress(client);
}

/**
 * `GET /healthz`: liveness, the process answers (no database call, for a load balancer's frequent
 * probe). `GET /readyz`: readiness, the database answers, mail is not stuck nor written to disk
 * unasked on a public origin (decision 217) and the process is not shutting down (decision 139);
 * 503 otherwise.
 * Their details (database kind, backup age) only to this machine or the metrics token.
 */
export function healthRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const started = deps.clock();
  const token = deps.env.METRICS_TOKEN;
  app.get('/healthz', (c) =>
    c.json(
      mayReadDetails(c, token) ? { status: 'ok', database: deps.database.kind } : { status: 'ok' },
    ),
  );
  app.get('/readyz', async (c) => {
    const readiness = await checkReadiness(deps, started);
    c.header('Cache-Control', 'no-store');
    const body = mayReadDetails(c, token) ? readiness : { status: readiness.status };
    return c.json(body, readiness.status === 'ready' ? 200 : 503);
  });
  return app;
}
