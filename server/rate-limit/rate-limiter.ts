import { createHmac } from 'node:crypto';
import { lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { rateLimitCounters } from '../db/schema.ts';
import type { Logger } from '../logger.ts';

export interface RateLimitRule {
  /** Counter family, e.g. `trial:ip`. */
  name: string;
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
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
}

/**
 * Fixed-window counters in the database, so every instance on one PostgreSQL server shares them
 * (decision 053). One upsert per hit; subjects are stored as keyed hashes only.
 */
export function createRateLimiter(options: {
  db: Database;
  clock: () => Date;
  secretKey: string;
}): RateLimiter {
  const { db, clock, secretKey } = options;
  return {
    async hit(rule, subject) {
      const now = clock().getTime();
      const windowMs = rule.windowSeconds * 1000;
      const windowStart = Math.floor(now / windowMs) * windowMs;
      const windowEnd = windowStart + windowMs;
      const bucket = createHmac('sha256', secretKey)
        .update(`rate-limit:${rule.name}:${subject.toLowerCase()}`)
        .digest('base64url');
      const [row] = await db
        .insert(rateLimitCounters)
        .values({
          bucket,
          windowStart: new Date(windowStart),
          hits: 1,
          expiresAt: new Date(windowEnd),
        })
        .onConflictDoUpdate({
          target: [rateLimitCounters.bucket, rateLimitCounters.windowStart],
          set: { hits: sql`${rateLimitCounters.hits} + 1` },
        })
        .returning({ hits: rateLimitCounters.hits });
      const hits = row?.hits ?? 1;
      return {
        allowed: hits <= rule.limit,
        retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
        limit: rule.limit,
        remaining: Math.max(0, rule.limit - hits),
      };
    },
  };
}

/** Deletes counters of windows that have ended. */
export async function sweepRateLimitCounters(db: Database, now: Date): Promise<number> {
  const deleted = await db
    .delete(rateLimitCounters)
    .where(lt(rateLimitCounters.expiresAt, now))
    .returning({ bucket: rateLimitCounters.bucket });
  return deleted.length;
}

/** Sweeps expired counters every ten minutes; returns a stopper. */
export function startRateLimitSweeper(
  db: Database,
  clock: () => Date,
  logger: Logger,
  intervalMs = 10 * 60_000,
): () => Promise<void> {
  const timer = setInterval(() => {
    sweepRateLimitCounters(db, clock()).catch((error: unknown) =>
      logger.error({ err: error }, 'rate-limit sweep failed'),
    );
  }, intervalMs);
  timer.unref();
  return async () => clearInterval(timer);
}
