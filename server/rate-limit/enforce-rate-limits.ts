import type { Context } from 'hono';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import { rateLimitMessage } from '#shared/contracts/messages.ts';
import type { RequestInput } from '../http/request-input.ts';
import type { AppEnv } from '../http/types.ts';
import { normalizeEmailAddress } from '../licences/normalize-email-address.ts';
import { rateLimitClient } from './client-ip.ts';
import type { RateLimiter, RateLimitRule } from './rate-limiter.ts';

/**
 * Counts one request against each rule in order; the first exhausted rule answers 429 with
 * `Retry-After`. Returns undefined when the request may proceed.
 */
export async function enforceRateLimits(
  c: Context<AppEnv>,
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
