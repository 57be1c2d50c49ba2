import type { RateLimitRule } from './rate-limiter.ts';

const HOUR = 3600;

/**
 * The limits of every public POST (decision 053). Per IP they are generous, because whole
 * companies share one address; per e-mail address they bound how many e-mails a stranger can
 * make us send to someone.
 */
export const rateLimitRules = {
  contactPerIp: { name: 'contact:ip', limit: 20, windowSeconds: HOUR },
  contactPerEmail: { name: 'contact:email', limit: 5, windowSeconds: HOUR },
  trialPerIp: { name: 'trial:ip', limit: 20, windowSeconds: HOUR },
  trialPerEmail: { name: 'trial:email', limit: 5, windowSeconds: HOUR },
  managePerIp: { name: 'manage:ip', limit: 20, windowSeconds: HOUR },
  managePerEmail: { name: 'manage:email', limit: 3, windowSeconds: HOUR },
} satisfies Record<string, RateLimitRule>;

/**
 * Licence validation (decision 077): per credential as configured
 * (`LICENSE_VALIDATION_RATE_LIMIT` a minute), four times that per address (CI fleets share one).
 */
export function licenceValidationRules(perMinute: number) {
  return {
    perCredential: { name: 'validate:credential', limit: perMinute, windowSeconds: 60 },
    perIp: { name: 'validate:ip', limit: perMinute * 4, windowSeconds: 60 },
  } satisfies Record<string, RateLimitRule>;
}
