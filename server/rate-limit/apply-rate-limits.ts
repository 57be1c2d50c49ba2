import type { Context } from 'hono';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import { rateLimitMessage } from '#shared/contracts/messages.ts';
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

export interface RateLimitOutcome {
  /** `X-RateLimit-Limit`, `-Remaining`, `-Reset` of the tightest rule, for the answer. */
  headers: Record<string, string>;
  /** The 429 answer (with the same headers and `Retry-After`) when a rule is exhausted. */
  refused: Response | undefined;
}

/** What counting a request against its rules decided, without an HTTP context. */
export interface RateLimitVerdict {
  /** `X-RateLimit-Limit`, `-Remaining`, `-Reset` of the tightest rule. */
  headers: Record<string, string>;
  /** Seconds until the request may be sent again when a rule is exhausted; undefined if allowed. */
  retryAfterSeconds: number | undefined;
}

/** Counts the request against every rule (at once) and reports the tightest one. */
export async function decideRateLimits(
  limiter: RateLimiter,
  hits: Array<{ rule: RateLimitRule; subject: string }>,
): Promise<RateLimitVerdict> {
  const decisions = await Promise.all(hits.map(({ rule, subject }) => limiter.hit(rule, subject)));
  const shown = tightest(decisions);
  const headers: Record<string, string> = shown
    ? {
        'X-RateLimit-Limit': String(shown.limit),
        'X-RateLimit-Remaining': String(shown.remaining),
        'X-RateLimit-Reset': String(shown.retryAfterSeconds),
      }
    : {};
  const refused = decisions.filter((decision) => !decision.allowed);
  if (refused.length === 0) return { headers, retryAfterSeconds: undefined };
  return { headers, retryAfterSeconds: Math.max(...refused.map((d) => d.retryAfterSeconds)) };
}

/** The 429 answer for a refused verdict, with its headers and `Retry-After`. */
export function tooManyRequests(c: Context, headers: Record<string, string>, retryAfter: number) {
  return c.json({ Error: errorCodes.tooManyRequests, message: rateLimitMessage(retryAfter) }, 429, {
    ...headers,
    'Retry-After': String(retryAfter),
  });
}

/**
 * Like `enforceRateLimits`, for APIs that machines call in loops: counts the request against
 * every rule and reports `X-RateLimit-Limit`, `-Remaining` and `-Reset` (seconds to the end of
 * the window) of the tightest one, so clients can pace themselves. An exhausted rule answers 429
 * with `Retry-After`. The headers come back as a plain record, so a hot path can answer with a
 * plain header object instead of `c.header()`'s `Headers` instance.
 */
export async function countRateLimits(
  c: Context,
  limiter: RateLimiter,
  hits: Array<{ rule: RateLimitRule; subject: string }>,
): Promise<RateLimitOutcome> {
  const verdict = await decideRateLimits(limiter, hits);
  return {
    headers: verdict.headers,
    refused:
      verdict.retryAfterSeconds === undefined
        ? undefined
        : tooManyRequests(c, verdict.headers, verdict.retryAfterSeconds),
  };
}

/** `countRateLimits` for ordinary handlers: sets the headers on `c`; the 429 answer, if any. */
export async function applyRateLimits(
  c: Context,
  limiter: RateLimiter,
  hits: Array<{ rule: RateLimitRule; subject: string }>,
): Promise<Response | undefined> {
  const outcome = await countRateLimits(c, limiter, hits);
  for (const [name, value] of Object.entries(outcome.headers)) c.header(name, value);
  return outcome.refused;
}
