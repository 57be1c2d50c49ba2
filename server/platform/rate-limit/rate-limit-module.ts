import type { DatabaseHandle } from '../db/client.ts';
import { defineDomain } from '../domain/define-domain.ts';
import { rateLimitJobs, type RateLimiter } from './rate-limiter.ts';

interface RateLimitJobContext {
  deps: { database: DatabaseHandle; rateLimiter: RateLimiter; clock: () => Date };
}

/** Rate limits: writing the hits counted in memory, and sweeping the windows that ended. */
export const rateLimitDomain = defineDomain<never, RateLimitJobContext>({
  name: 'rate-limit',
  jobs: ({ deps }) =>
    rateLimitJobs({ limiter: deps.rateLimiter, db: deps.database.db, clock: deps.clock }),
});
