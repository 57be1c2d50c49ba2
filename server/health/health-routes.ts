import { Hono } from 'hono';
import { pingDatabase } from '../db/client.ts';
import type { AppDeps } from '../deps.ts';
import { createOutboxRepository } from '../email/outbox-repository.ts';
import type { AppEnv } from '../http/types.ts';

/** Mail due longer than this means delivery is stuck (the trial e-mail is promised in minutes). */
export const OUTBOX_STUCK_AFTER_MS = 10 * 60_000;
/** A readiness probe answers within this, reachable or not. */
const DATABASE_CHECK_TIMEOUT_MS = 2_000;

export interface Readiness {
  status: 'ready' | 'unavailable';
  database: { kind: 'pglite' | 'postgres'; reachable: boolean };
  /** Age of the oldest e-mail that is due and unsent, in seconds (0 when none). */
  outbox: { oldestDueSeconds: number | null; stuck: boolean };
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref();
    }),
  ]);
}

/** Checks the database and the outbox backlog (decision 112). */
export async function checkReadiness(deps: AppDeps): Promise<Readiness> {
  const { database, clock } = deps;
  const now = clock();
  try {
    const oldest = await within(
      (async () => {
        await pingDatabase(database.db);
        return createOutboxRepository(database.db).oldestDue(now);
      })(),
      DATABASE_CHECK_TIMEOUT_MS,
    );
    const ageMs = oldest ? Math.max(0, now.getTime() - oldest.getTime()) : 0;
    const stuck = ageMs > OUTBOX_STUCK_AFTER_MS;
    return {
      status: stuck ? 'unavailable' : 'ready',
      database: { kind: database.kind, reachable: true },
      outbox: { oldestDueSeconds: Math.round(ageMs / 1000), stuck },
    };
  } catch {
    return {
      status: 'unavailable',
      database: { kind: database.kind, reachable: false },
      outbox: { oldestDueSeconds: null, stuck: false },
    };
  }
}

/**
 * `GET /healthz`: liveness, the process answers (no database call, for a load balancer's frequent
 * probe). `GET /readyz`: readiness, the database answers and mail is not stuck; 503 otherwise.
 */
export function healthRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/healthz', (c) => c.json({ status: 'ok', database: deps.database.kind }));
  app.get('/readyz', async (c) => {
    const readiness = await checkReadiness(deps);
    c.header('Cache-Control', 'no-store');
    return c.json(readiness, readiness.status === 'ready' ? 200 : 503);
  });
  return app;
}
