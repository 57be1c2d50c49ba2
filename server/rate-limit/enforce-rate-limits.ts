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
 * The gate of a public form that makes us send an e-mail (contact, trial): the per-address limit
 * before anything is read, then the input, then the per-mailbox limit on its (normalized)
 * `emailAddress`. The first refusal or input error is the answer (decision 053).
 */
export async function gatePublicForm<T extends { emailAddress: string }>(
  c: Context<AppEnv>,
  limiter: RateLimiter,
  rules: { perIp: RateLimitRule; perEmail: RateLimitRule },
  read: () => RequestInput<T> | Promise<RequestInput<T>>,
): Promise<RequestInput<T>> {
  const perIp = await enforceRateLimits(c, limiter, [
    { rule: rules.perIp, subject: rateLimitClient(c) },
  ]);
  if (perIp) return { ok: false, response: perIp };
  const input = await read();
  if (!input.ok) return input;
  const perEmail = await enforceRateLimits(c, limiter, [
    { rule: rules.perEmail, subject: normalizeEmailAddress(input.value.emailAddress) },
  ]);
  return perEmail ? { ok: false, response: perEmail } : input;
}
