import { keyedHash } from '#server/platform/crypto/keyed-hash.ts';
import type { Database } from '../db/database.ts';
import type { Job } from '../jobs/job.ts';
import {
  counterKey,
  deleteExpiredCounters,
  writeCounterIncrements,
} from './rate-limit-repository.ts';

export interface RateLimitRule {
  /** Counter family, e.g. `trial:ip`. */
  name: string;
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
  /**
   * `memory`: an approximate limit counted in this process alone, each instance admitting its
   * part `ceil(limit / N)` of the live instances N (decision 238) — the high-volume reads
   * (validation, checkout status) that must cost the database nothing per request. Absent: exact,
   * counted in the database by every instance (the e-mail-sending forms, decision 085).
   */
  counted?: 'memory';
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Seconds until the current window ends (for `Retry-After`). */
  retryAfterSeconds: number;
  /** The rule's limit and what is left of it in this window (for `X-RateLimit-*` headers). */
  limit: number;
  remaining: number;
}

/** Counts requests per rule and subject (an IP address, an e-mail address). */
export interface RateLimiter {
  hit(rule: RateLimitRule, subject: string): Promise<RateLimitDecision>;
  /** Writes every hit counted so far that the database does not hold yet. */
  flush(): Promise<void>;
}

/**
 * The share of a rule's limit the instances together may admit from memory before the database
 * has confirmed those hits (decisions 085, 195): each instance gets `floor(limit × share / P)`
 * with P the live instances, so a window admits at most `limit × (1 + share)` requests whatever
 * the instance count; one instance is exact. A share below one hit is none: that admission is
 * decided by the database.
 */
export const UNCONFIRMED_SHARE = 0.1;
/** How often the flusher writes counted hits (decision 085). */
export const RATE_LIMIT_FLUSH_INTERVAL_MS = 1000;

/**
 * Hits one instance may admit from memory before writing them (decisions 085, 195): its part of
 * the share, `instances` being the live count; none while that count is unknown.
 */
export function unconfirmedAllowance(limit: number, instances: number | undefined = 1): number {
  if (instances === undefined) return 0;
  return Math.floor((limit * UNCONFIRMED_SHARE) / Math.max(1, instances));
}

/** Who tells the limiter how many instances share a limit (`live_instances`, decision 195). */
export interface LimitSharers {
  /** The live instance count, or undefined when this instance cannot be sure all count it. */
  shareDivisor(): number | undefined;
  /** The live instance count as this instance last read it (1 before it has read one). */
  instanceCount(): number;
}

/**
 * What one instance admits of a rule counted in memory (decision 238): its part of the limit
 * among `instances` live ones, at least one. With requests spread evenly (a balancer that picks
 * an instance per request), the cluster admits about the limit, and never more than
 * `limit + instances - 1` whatever the spread; a client whose requests all reach one instance
 * gets only that instance's part.
 */
export function instanceShare(limit: number, instances: number): number {
  return Math.max(1, Math.ceil(limit / Math.max(1, instances)));
}

/** One rule and subject in one window, counted by this instance only (decision 238). */
interface LocalCounter {
  windowStart: number;
  windowEnd: number;
  hits: number;
}

/** One rule and subject in one window, as this instance knows it. */
interface Counter {
  bucket: string;
  windowStart: number;
  windowEnd: number;
  /** The database's total after this instance's last write; undefined before the first. */
  known: number | undefined;
  /** Hits in the write now under way. */
  inFlight: number;
  /** Hits counted here and not yet written. */
  pending: number;
  /** The write under way (it never rejects); undefined when none is. */
  writing: Promise<void> | undefined;
}

/**
 * Fixed-window counters shared through the database by every instance (decisions 053, 085).
 * Hits are counted in memory and written in batches: a hit is decided from the database's last
 * known total plus this instance's own hits since; the first hit of a window, and any hit once
 * this instance holds its allowance of unwritten admissions, is written at once and decided by
 * the total the database returns. `flush()` (every second, and at shutdown) writes the rest in one
 * statement. Subjects are stored as keyed hashes only.
 */
export function createRateLimiter(options: {
  db: Database;
  clock: () => Date;
  secretKey: string;
  /** Counters kept in memory before idle ones are dropped (they are re-read when hit again). */
  maxCounters?: number;
  /** Told every refusal, with its rule (`/metrics`). */
  onRefusal?: (rule: RateLimitRule) => void;
  /**
   * The live instances a limit's unconfirmed share is divided among (decision 195); without it,
   * this process counts as the only one (tests, benchmarks, the embedded database).
   */
  sharers?: LimitSharers;
}): RateLimiter {
  const { db, clock, secretKey, onRefusal, sharers } = options;
  const maxCounters = options.maxCounters ?? 100_000;
  const counters = new Map<string, Counter>();
  let pruneScheduled = false;

  const bucketOf = (rule: RateLimitRule, subject: string) =>
    keyedHash(secretKey, 'rate-limit', `${rule.name}:${subject.toLowerCase()}`);

  /**
   * Writes the pending hits of `batch` (plus `extra` hits of the first counter, the caller's own)
   * in one statement and returns that counter's new total. Concurrent hits wait for it.
   */
  async function write(batch: Counter[], extra = 0): Promise<number | undefined> {
    let release = () => {};
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const deltas = batch.map((counter, index) => {
      const delta = counter.pending + (index === 0 ? extra : 0);
      counter.inFlight = delta;
      counter.pending = 0;
      counter.writing = done;
      return delta;
    });
    try {
      const totals = await writeCounterIncrements(
        db,
        batch.map((counter, index) => ({
          bucket: counter.bucket,
          windowStart: new Date(counter.windowStart),
          expiresAt: new Date(counter.windowEnd),
          hits: deltas[index] ?? 0,
        })),
      );
      for (const counter of batch) {
        counter.known =
          totals.get(counterKey(counter.bucket, counter.windowStart)) ?? counter.known;
      }
      return batch[0] && totals.get(counterKey(batch[0].bucket, batch[0].windowStart));
    } catch (error) {
      // Keep the hits decided from memory for the next write; the caller's own hit failed with it.
      batch.forEach((counter, index) => {
        counter.pending += (deltas[index] ?? 0) - (index === 0 ? extra : 0);
      });
      throw error;
    } finally {
      for (const counter of batch) {
        counter.inFlight = 0;
        counter.writing = undefined;
      }
      release();
    }
  }

  /** Drops counters that hold nothing unwritten: of ended windows, and the oldest when too many. */
  function prune(now: number) {
    let excess = counters.size - maxCounters;
    for (const [key, counter] of counters) {
      if (counter.pending > 0 || counter.writing) continue;
      if (counter.windowEnd <= now || excess > 0) {
        counters.delete(key);
        excess -= 1;
      }
    }
  }

  /**
   * The counter of a rule, subject and window. Keyed by the subject in memory, so the keyed hash
   * that names it in the database is computed once per window, not per hit.
   */
  function counterFor(
    rule: RateLimitRule,
    subject: string,
    windowStart: number,
    windowEnd: number,
  ): Counter {
    const key = `${rule.name}\n${subject.toLowerCase()}\n${windowStart}`;
    let counter = counters.get(key);
    if (!counter) {
      counter = {
        bucket: bucketOf(rule, subject),
        windowStart,
        windowEnd,
        known: undefined,
        inFlight: 0,
        pending: 0,
        writing: undefined,
      };
      counters.set(key, counter);
      if (counters.size > maxCounters && !pruneScheduled) {
        pruneScheduled = true;
        setImmediate(() => {
          limiter
            .flush()
            .catch(() => undefined)
            .finally(() => {
              pruneScheduled = false;
            });
        });
      }
    }
    return counter;
  }

  const local = new Map<string, LocalCounter>();

  /** Drops local counters of ended windows, and the oldest ones while there are too many. */
  function pruneLocal(now: number) {
    let excess = local.size - maxCounters;
    for (const [key, counter] of local) {
      if (counter.windowEnd <= now || excess > 0) {
        local.delete(key);
        excess -= 1;
      }
    }
  }

  /**
   * A rule counted in memory (decision 238): no statement, no wait. The answer's `remaining`
   * estimates the cluster's by scaling this instance's count by the instance count.
   */
  function hitLocally(rule: RateLimitRule, subject: string, now: number): RateLimitDecision {
    const windowMs = rule.windowSeconds * 1000;
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const windowEnd = windowStart + windowMs;
    const key = `${rule.name}\n${subject.toLowerCase()}`;
    let counter = local.get(key);
    if (!counter || counter.windowStart !== windowStart) {
      if (counter) local.delete(key);
      counter = { windowStart, windowEnd, hits: 0 };
      local.set(key, counter);
      if (local.size > maxCounters) pruneLocal(now);
    }
    const instances = Math.max(1, sharers?.instanceCount() ?? 1);
    const share = instanceShare(rule.limit, instances);
    const allowed = counter.hits < share;
    if (allowed) counter.hits += 1;
    else onRefusal?.(rule);
    return {
      allowed,
      retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
      limit: rule.limit,
      remaining: allowed ? Math.max(0, rule.limit - counter.hits * instances) : 0,
    };
  }

  const limiter: RateLimiter = {
    async hit(rule, subject) {
      const now = clock().getTime();
      if (rule.counted === 'memory') return hitLocally(rule, subject, now);
      const windowMs = rule.windowSeconds * 1000;
      const windowStart = Math.floor(now / windowMs) * windowMs;
      const windowEnd = windowStart + windowMs;
      const allowance = unconfirmedAllowance(rule.limit, sharers ? sharers.shareDivisor() : 1);
      const decide = (position: number): RateLimitDecision => {
        const allowed = position <= rule.limit;
        if (!allowed) onRefusal?.(rule);
        return {
          allowed,
          retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
          limit: rule.limit,
          remaining: Math.max(0, rule.limit - position),
        };
      };
      for (;;) {
        // Looked up afresh after every wait: an idle counter may have been dropped meanwhile.
        const counter = counterFor(rule, subject, windowStart, windowEnd);
        if (counter.known !== undefined) {
          const counted = counter.known + counter.inFlight + counter.pending;
          // Refused from memory at the limit (the database holds at least this many, so the
          // refusal is certain); admitted from memory while within the allowance.
          if (counted >= rule.limit || counter.inFlight + counter.pending < allowance) {
            counter.pending += 1;
            return decide(counted + 1);
          }
        }
        if (counter.writing) {
          await counter.writing;
          continue;
        }
        // First hit of the window here, or the allowance is used up: the database decides.
        const total = await write([counter], 1);
        return decide(total ?? 1);
      }
    },

    async flush() {
      // Twice at most: a write under way may finish with hits counted meanwhile still pending.
      for (let pass = 0; pass < 2; pass++) {
        await Promise.all([...counters.values()].map((counter) => counter.writing));
        const due = [...counters.values()].filter(
          (counter) => counter.pending > 0 && !counter.writing,
        );
        for (let start = 0; start < due.length; start += 1000) {
          await write(due.slice(start, start + 1000));
        }
        if (due.length === 0) break;
      }
      prune(clock().getTime());
      pruneLocal(clock().getTime());
    },
  };
  return limiter;
}

/**
 * The rate limiter's jobs (decision 174): every instance flushes its counted hits every
 * `flushEveryMs` and once more when it stops, so a graceful shutdown loses none; one instance per
 * period deletes the counters of windows that have ended.
 */
export function rateLimitJobs(options: {
  limiter: RateLimiter;
  db: Database;
  clock: () => Date;
  flushEveryMs?: number;
  sweepEveryMs?: number;
}): Job[] {
  const { limiter, db, clock } = options;
  return [
    {
      name: 'rate-limit-flush',
      scope: 'instance',
      everyMs: options.flushEveryMs ?? RATE_LIMIT_FLUSH_INTERVAL_MS,
      firstAfterMs: options.flushEveryMs ?? RATE_LIMIT_FLUSH_INTERVAL_MS,
      run: () => limiter.flush(),
      onStop: () => limiter.flush(),
    },
    {
      name: 'rate-limit-sweep',
      scope: 'cluster',
      everyMs: options.sweepEveryMs ?? 10 * 60_000,
      run: () => sweepRateLimitCounters(db, clock()),
    },
  ];
}

/** Deletes counters of windows that have ended. */
export function sweepRateLimitCounters(db: Database, now: Date): Promise<number> {
  return deleteExpiredCounters(db, now);
}
