import { hash } from 'node:crypto';
import type { LicensingPorts } from '#server/licensing/licensing-ports.ts';
import type { LicenceCertificate } from '../licence-certificates/licence-certificate-contract.ts';
import type { ValidationCode } from '../licences/check-licence.ts';
import { decideRateLimits } from '#server/platform/rate-limit/enforce-rate-limits.ts';
import { licenceValidationRules } from '#server/platform/rate-limit/rate-limit-rules.ts';
import { createLookupCache } from './lookup-cache.ts';
import type { LicenceForValidation } from './licence-validation-repository.ts';
import {
  identifyCredential,
  validateLicence,
  type Credential,
  type IdentifiedCredential,
} from './validate-licence.ts';

/** One validation as the route parsed it. */
export interface ValidationRequest {
  credential: Credential;
  productId: string;
  orgId: string | null;
  /** The client address rate limits count against. */
  clientIp: string;
}

export type ValidationResult =
  /** The answer, serialized (a burst of identical validations shares one string). */
  | { ok: true; json: string; headers: Record<string, string> }
  /** A rate limit is exhausted. */
  | { ok: false; retryAfterSeconds: number; headers: Record<string, string> };

export type LicenceValidatorDeps = Pick<
  LicensingPorts,
  | 'env'
  | 'secretKey'
  | 'licenceSigningKey'
  | 'clock'
  | 'rateLimiter'
  | 'metrics'
  | 'validationTally'
> & { db: LicensingPorts['database']['db'] };

/** An answer kept for a burst of identical validations: its text, and its code for `/metrics`. */
interface StoredAnswer {
  json: string;
  code: ValidationCode;
}

export function licenceValidatorDepsOf(deps: LicensingPorts): LicenceValidatorDeps {
  return { ...deps, db: deps.database.db };
}

const credentialText = (credential: Credential) =>
  credential.kind === 'licenceKey' ? credential.key : credential.token;

/**
 * The CLI's licence check behind `POST /account/v1/licenses/validate` (decisions 073, 077): it
 * identifies the credential (parsed and hashed once per distinct text), counts the rate limits
 * (per address and per credential), and answers from memory when the same licence, product and
 * org were validated within `LICENSE_VALIDATION_CACHE_SECONDS`. It owns all of the hot path's
 * state; the route only parses and responds.
 */
export function createLicenceValidator(deps: LicenceValidatorDeps) {
  const perMinute = deps.env.LICENSE_VALIDATION_RATE_LIMIT;
  const rules = licenceValidationRules(perMinute);
  const cacheOptions = {
    ttlMs: deps.env.LICENSE_VALIDATION_CACHE_SECONDS * 1000,
    maxEntries: 10_000,
    clock: deps.clock,
  };
  const licences = createLookupCache<Promise<LicenceForValidation | null>>(cacheOptions);
  const certificates = createLookupCache<LicenceCertificate>(cacheOptions);
  const answers = createLookupCache<StoredAnswer>(cacheOptions);
  // Credentials already parsed and hashed, by a fingerprint of the text as sent (never the text).
  const identities = createLookupCache<IdentifiedCredential>(cacheOptions);
  const validateDeps = {
    db: deps.db,
    secretKey: deps.secretKey,
    signingKey: deps.licenceSigningKey,
    clock: deps.clock,
    cache: licences,
    certificates,
  };

  function identify(credential: Credential, orgId: string | null): IdentifiedCredential {
    const fingerprint = hash(
      'sha256',
      `${credential.kind}\n${credentialText(credential)}\n${orgId ?? ''}`,
      'base64url',
    );
    let identified = identities.get(fingerprint);
    if (!identified) {
      identified = identifyCredential(deps.secretKey, credential, orgId);
      identities.set(fingerprint, identified);
    }
    return identified;
  }

  return {
    async validate(request: ValidationRequest): Promise<ValidationResult> {
      const identified = identify(request.credential, request.orgId);
      let headers: Record<string, string> = {};
      if (perMinute > 0) {
        const verdict = await decideRateLimits(deps.rateLimiter, [
          { rule: rules.perIp, subject: request.clientIp },
          {
            rule: rules.perCredential,
            // However the key is spelled, it is one credential with one budget.
            subject:
              identified.kind === 'hashed'
                ? identified.credentialHash
                : `raw:${credentialText(request.credential)}`,
          },
        ]);
        if (verdict.retryAfterSeconds !== undefined) {
          return {
            ok: false,
            retryAfterSeconds: verdict.retryAfterSeconds,
            headers: verdict.headers,
          };
        }
        headers = verdict.headers;
      }
      const answerKey =
        identified.kind === 'hashed' ? `${identified.cacheKey}|${request.productId}` : '';
      let answer = answerKey ? answers.get(answerKey) : undefined;
      if (answer === undefined) {
        const input = {
          credential: request.credential,
          productId: request.productId,
          orgId: request.orgId,
        };
        const validation = await validateLicence(validateDeps, input, identified);
        answer = { json: JSON.stringify(validation), code: validation.code };
        if (answerKey) answers.set(answerKey, answer);
      }
      deps.metrics.licenceValidated(answer.code);
      deps.validationTally.count(answer.code);
      return { ok: true, json: answer.json, headers };
    },
  };
}

export type LicenceValidator = ReturnType<typeof createLicenceValidator>;
