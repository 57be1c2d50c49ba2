import type { Context } from 'hono';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import { rateLimitMessage } from '#shared/contracts/messages.ts';
import type { RequestInput } from '../http/request-input.ts';
import type { AppEnv } from '../http/types.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { rateLimitClient } from './client-ip.ts';
import type { RateLimitDecision, RateLimiter, RateLimitRule } from './rate-limiter.ts';

/** One count: a rule of `rate-limit-rules.ts` and whom it counts (a client, a mailbox, a key). */
export interface RateLimitHit {
  rule: RateLimitRule;
  subject: string;
}

/** What counting a request against its rules decided, without an HTTP context. */
export interface RateLimitVerdict {
  /** `X-RateLimit-Limit`, `-Remaining`, `-Reset` of the tightest rule counted. */
  headers: Record<string, string>;
  /** Seconds until the request may be sent again when a rule refused it; undefined if allowed. */
  retryAfterSeconds: number | undefined;
}

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
 * The one place a request is counted (decision 166): each rule in the order given; the first
 * exhausted one refuses, and the rules after it are not counted, so a client over its own limit
 * spends nothing of a shared one (decision 125). Services without an HTTP context (validation,
 * the checkout-status reader) use it directly; routes use `enforceRateLimits`.
 */
export async function decideRateLimits(
  limiter: RateLimiter,
  hits: RateLimitHit[],
): Promise<RateLimitVerdict> {
  const decisions: RateLimitDecision[] = [];
  let refused: RateLimitDecision | undefined;
  for (const { rule, subject } of hits) {
    const decision = await limiter.hit(rule, subject);
    decisions.push(decision);
    if (!decision.allowed) {
      refused = decision;
      break;
    }
  }
  const shown = tightest(decisions);
  const headers: Record<string, string> = shown
    ? {
        'X-RateLimit-Limit': String(shown.limit),
        'X-RateLimit-Remaining': String(shown.remaining),
        'X-RateLimit-Reset': String(shown.retryAfterSeconds),
      }
    : {};
  return { headers, retryAfterSeconds: refused?.retryAfterSeconds };
}

/**
 * The API's one 429 answer (decision 053): `{"Error":"TooManyRequests","message":…}` with
 * `Retry-After`, plus the `X-RateLimit-*` headers of the endpoints that report them.
 */
export function tooManyRequests(
  c: Context,
  retryAfterSeconds: number,
  headers: Record<string, string> = {},
): Response {
  return c.json(
    { Error: errorCodes.tooManyRequests, message: rateLimitMessage(retryAfterSeconds) },
    429,
    { ...headers, 'Retry-After': String(retryAfterSeconds) },
  );
}

/**
 * A route's rate limits: counts the request (`decideRateLimits`) and returns the 429 answer when
 * a rule refused it, else undefined. With `pacing` (APIs that machines call in loops) every
 * answer carries `X-RateLimit-Limit`, `-Remaining` and `-Reset` (seconds to the end of the
 * window) of the tightest rule, so clients can pace themselves; public forms do not tell them.
 */
export async function enforceRateLimits(
  c: Context,
  limiter: RateLimiter,
  hits: RateLimitHit[],
  options: { pacing?: boolean } = {},
): Promise<Response | undefined> {
  const verdict = await decideRateLimits(limiter, hits);
  if (options.pacing) {
    for (const [name, value] of Object.entries(verdict.headers)) c.header(name, value);
  }
  return verdict.retryAfterSeconds === undefined
    ? undefined
    : tooManyRequests(c, verdict.retryAfterSeconds);
}

/**
 * The gate of a public form that makes us send an e-mail or write in someone's name (contact,
 * trial, quote, portal link, invoice order): the per-client limit before anything is read, then
 * the input, then the per-mailbox limit on its (normalized) address. The first refusal or input
 * error is the answer (decisions 053, 146).
 */
export async function gatePublicForm<T>(
  c: Context<AppEnv>,
  limiter: RateLimiter,
  rules: {
    perIp: RateLimitRule;
    perEmail: RateLimitRule;
    /** The mailbox the request acts for (the form's e-mail address, an order's billing e-mail). */
    addressOf: (input: T) => string;
  },
  read: () => RequestInput<T> | Promise<RequestInput<T>>,
): Promise<RequestInput<T>> {
  const perIp = await enforceRateLimits(c, limiter, [
    { rule: rules.perIp, subject: rateLimitClient(c) },
  ]);
  if (perIp) return { ok: false, response: perIp };
  const input = await read();
  if (!input.ok) return input;
  const perEmail = await enforceRateLimits(c, limiter, [
    { rule: rules.perEmail, subject: normalizeEmailAddress(rules.addressOf(input.value)) },
  ]);
  return perEmail ? { ok: false, response: perEmail } : input;
}
