import type { Context } from 'hono';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import { rateLimitMessage } from '#shared/contracts/messages.ts';
import type { RateLimiter, RateLimitRule } from './rate-limiter.ts';

/**
 * Counts one request against each rule in order; the first exhausted rule answers 429 with
 * `Retry-After`. Returns undefined when the request may proceed.
 */
export async function enforceRateLimits(
  c: Context,
  limiter: RateLimiter,
  hits: Array<{ rule: RateLimitRule; subject: string }>,
): Promise<Response | undefined> {
  for (const { rule, subject } of hits) {
    const decision = await limiter.hit(rule, subject);
    if (!decision.allowed) {
      c.header('Retry-After', String(decision.retryAfterSeconds));
      return c.json(
        {
          Error: errorCodes.tooManyRequests,
          message: rateLimitMessage(decision.retryAfterSeconds),
        },
        429,
      );
    }
  }
  return undefined;
}
