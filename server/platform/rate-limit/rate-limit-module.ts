import type { DatabaseHandle } from '../db/client.ts';
import { defineDomain } from '../domain/define-domain.ts';
import type { Logger } from '../logger.ts';
import { startRateLimitFlusher, startRateLimitSweeper, type RateLimiter } from './rate-limiter.ts';

interface RateLimitJobContext {
  deps: { database: DatabaseHandle; rateLimiter: RateLimiter; clock: () => Date; logger: Logger };
}

/** Rate limits: writing the hits counted in memory, and sweeping the windows that ended. */
export const rateLimitDomain = defineDomain<never, RateLimitJobContext>({
  name: 'rate-limit',
  jobs: [
    {
      name: 'rate-limit flusher',
      start: ({ deps }) => startRateLimitFlusher(deps.rateLimiter, deps.logger),
    },
    {
      name: 'rate-limit sweeper',
      start: ({ deps }) => startRateLimitSweeper(deps.database.db, deps.clock, deps.logger),
    },
  ],
});
