import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database } from '../db/database.ts';
import type { Job } from '../jobs/job.ts';
import { createLiveInstanceRepository } from './live-instance-repository.ts';

/** How often an instance renews its row in `live_instances`. */
export const INSTANCE_HEARTBEAT_MS = 5_000;
/** An instance not seen for this long is not counted (three missed renewals). */
export const INSTANCE_STALE_MS = 3 * INSTANCE_HEARTBEAT_MS;
/** Rows not renewed for this long are deleted (a crashed instance's). */
const INSTANCE_FORGET_MS = 60 * 60_000;

/**
 * This process's entry in the registry of live instances (decision 195). It renews its row every
 * few seconds and reads how many instances are alive. The rate limiter divides the share of a
 * limit it admits from memory by that count; until every other instance has had time to count
 * this one (two renewals after its first), it admits from memory nothing at all.
 */
export interface InstanceRegistry {
  readonly id: string;
  /**
   * The count to divide a limit's unconfirmed share by, or undefined while this instance cannot
   * be sure every other one counts it (just started, or not seen by the database for a while).
   */
  shareDivisor(): number | undefined;
  /** The live count as last read (1 before the first heartbeat): memory limits' divisor. */
  instanceCount(): number;
  /**
   * Whether this instance reports the cluster-wide figures (the outbox backlog, cluster jobs'
   * last runs) on `/metrics`: the live instance with the first id, so fifty instances scraped
   * cost the database one reading, not fifty (decision 240). True until the first heartbeat has
   * read the others, and whenever the database has not been reached lately (no one else may be).
   */
  reportsCluster(): boolean;
  /** The last heartbeat reached the database within the stale window (`/metrics`' reachability). */
  databaseAnswering(): boolean;
  /** Renews this instance's row, forgets long-dead ones and reads the live count. */
  heartbeat(): Promise<number>;
  /** Deletes this instance's row (at a clean stop): the others count one fewer at once. */
  leave(): Promise<void>;
}

export function createInstanceRegistry(options: {
  db: Database;
  clock: () => Date;
  id?: string;
  heartbeatMs?: number;
}): InstanceRegistry {
  const { db, clock } = options;
  const heartbeatMs = options.heartbeatMs ?? INSTANCE_HEARTBEAT_MS;
  const staleMs = 3 * heartbeatMs;
  const id = options.id ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const startedAt = clock();
  const rows = createLiveInstanceRepository(db);
  /** When this instance's row was first written, and when last renewed. */
  let registeredAt: number | undefined;
  let renewedAt: number | undefined;
  let live = 1;
  /** The live instance with the first id, as last read; null before the first heartbeat. */
  let first: string | null = null;

  return {
    id,
    shareDivisor() {
      const now = clock().getTime();
      if (registeredAt === undefined || renewedAt === undefined) return undefined;
      // The others read the count at their own renewals: two periods after this row appeared,
      // every live instance has counted it.
      if (now - registeredAt < 2 * heartbeatMs) return undefined;
      // Not seen by the database lately: the others may have stopped counting it.
      if (now - renewedAt >= staleMs - heartbeatMs) return undefined;
      return Math.max(1, live);
    },
    instanceCount() {
      return live;
    },
    reportsCluster() {
      if (first === null || renewedAt === undefined) return true;
      if (clock().getTime() - renewedAt >= staleMs) return true;
      return first === id;
    },
    databaseAnswering() {
      return renewedAt !== undefined && clock().getTime() - renewedAt < staleMs;
    },
    async heartbeat() {
      const now = clock();
      await rows.renew(id, startedAt, now);
      registeredAt ??= now.getTime();
      renewedAt = now.getTime();
      await rows.forgetSeenBefore(new Date(now.getTime() - INSTANCE_FORGET_MS));
      const seen = await rows.liveSince(new Date(now.getTime() - staleMs));
      live = Math.max(1, seen.live);
      first = seen.first;
      return live;
    },
    async leave() {
      await rows.remove(id);
      registeredAt = undefined;
      renewedAt = undefined;
      first = null;
    },
  };
}

/** The registry's heartbeat as a job on every instance; the row is deleted when the runner stops. */
export function instanceHeartbeatJob(
  registry: InstanceRegistry,
  everyMs = INSTANCE_HEARTBEAT_MS,
): Job {
  return {
    name: 'instance-heartbeat',
    scope: 'instance',
    everyMs,
    firstAfterMs: 0,
    run: async () => void (await registry.heartbeat()),
    // The database may be away at the stop: the row then lapses within INSTANCE_STALE_MS.
    onStop: () => registry.leave().catch(() => undefined),
  };
}
