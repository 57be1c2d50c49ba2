import type { Context } from 'hono';
import { errorCodes } from '../../shared/contracts/error-codes.ts';
import { rateLimitMessage } from '../../shared/contracts/messages.ts';
import type { RateLimitDecision, RateLimiter, RateLimitRule } from './rate-limiter.ts';

/** The decision with the least room left: the one clients should pace themselves by. */
function tightest(decisions: RateLimitDecision[]): RateLimitDecision | undefined {
  return decisions.reduce<RateLimitDecision | undefined>(
    (worst, decision) =>
      !worst ||
      decision.remaining < worst.remaining ||
      (decision.remaining === worst.remaining &&
        decision.retryAfterSeconds > worst.retryAfterSeconds)
        ? decision
        : worst,
    undefined,
  );
}

/**
 * Like `enforceRateLimits`, for APIs that machines call in loops: counts the request against
 * every rule and sets `X-RateLimit-Limit`, `-Remaining` and `-Reset` (seconds to the end of the
 * window) from the tightest one, so clients can pace themselves. An exhausted rule answers 429
 * with `Retry-After`. Returns undefined when the request may proceed.
 */
export async function applyRateLimits(
  c: Context,
  limiter: RateLimiter,
  hits: Array<{ rule: RateLimitRule; subject: string }>,
): Promise<Response | undefined> {
  const decisions: RateLimitDecision[] = [];
  for (const { rule, subject } of hits) decisions.push(await limiter.hit(rule, subject));
  const shown = tightest(decisions);
  if (shown) {
    c.header('X-RateLimit-Limit', String(shown.limit));
    c.header('X-RateLimit-Remaining', String(shown.remaining));
    c.header('X-RateLimit-Reset', String(shown.retryAfterSeconds));
  }
  const refused = decisions.filter((decision) => !decision.allowed);
  if (refused.length === 0) return undefined;
  const retryAfter = Math.max(...refused.map((decision) => decision.retryAfterSeconds));
  c.header('Retry-After', String(retryAfter));
  return c.json({ Error: errorCodes.tooManyRequests, message: rateLimitMessage(retryAfter) }, 429);
}
