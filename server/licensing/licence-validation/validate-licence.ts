import type { Database } from '#server/platform/db/database.ts';
import { createAccessTokenRepository } from '../access-tokens/access-token-repository.ts';
import { hashAccessToken, looksLikeAccessToken } from '../access-tokens/access-token.ts';
import type { LicenceCertificate } from '../licence-certificates/licence-certificate-contract.ts';
import {
  issueLicenceCertificate,
  type CertificateSubject,
} from '../licence-certificates/issue-licence-certificate.ts';
import type { LicenceSigningKey } from '../licence-certificates/licence-signing-key.ts';
import { hashLicenceKey, parseLicenceKey } from '../licences/licence-key.ts';
import type { Licence } from '../licences/licence-repository.ts';
import {
  checkLicence,
  noOrgUsage,
  ORG_ACTIVE_DAYS,
  type ValidationCode,
} from '../licences/check-licence.ts';
import type { LookupCache } from './lookup-cache.ts';
import { licenceEntitlements, type LicenceEntitlements } from './licence-entitlements.ts';
import {
  createLicenceValidationRepository,
  type LicenceForValidation,
} from './licence-validation-repository.ts';

/** Last-seen times are kept to the hour, so most validations write nothing. */
const TOUCH_INTERVAL_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export type Credential =
  { kind: 'licenceKey'; key: string } | { kind: 'accessToken'; token: string };

export interface ValidateLicenceInput {
  credential: Credential;
  productId: string;
  /** Canonical 18-character org id, or null when the caller named none. */
  orgId: string | null;
}

export interface LicenceSummary {
  id: string;
  type: Licence['type'];
  edition: Licence['edition'];
  quantity: number;
  orgs: LicenceEntitlements['orgs'];
  orgsInUse: number;
  stacks: LicenceEntitlements['stacks'];
  features: string[];
  expiresAt: string | null;
}

export interface ValidationAnswer {
  valid: boolean;
  code: ValidationCode;
  detail: string;
  /** Null when the licence is unknown, belongs to another product or was revoked. */
  license: LicenceSummary | null;
  /** Present exactly when `valid` for a named org: it covers that org only (decision 151). */
  certificate?: LicenceCertificate;
}

export interface ValidateLicenceDeps {
  db: Database;
  secretKey: string;
  signingKey: LicenceSigningKey;
  clock: () => Date;
  /**
   * Recent look-ups by credential and org (null = no such licence); omitted = always read. It
   * holds promises, so concurrent misses for one key share a single query.
   */
  cache?: LookupCache<Promise<LicenceForValidation | null>>;
  /** Recently signed certificates by their content, reused for a few seconds; omitted = none. */
  certificates?: LookupCache<LicenceCertificate>;
}

/** A credential as the look-up sees it: hashed, or why it cannot match any licence. */
export type IdentifiedCredential =
  | { kind: 'hashed'; credentialHash: string; cacheKey: string }
  | { kind: 'typo' }
  | { kind: 'malformed' };

/**
 * Hashes the credential the way the database keeps it; `cacheKey` names this credential and org
 * in the short-lived caches (never the credential itself).
 */
export function identifyCredential(
  secretKey: string,
  credential: Credential,
  orgId: string | null,
): IdentifiedCredential {
  let credentialHash: string;
  if (credential.kind === 'accessToken') {
    if (!looksLikeAccessToken(credential.token)) return { kind: 'malformed' };
    credentialHash = hashAccessToken(secretKey, credential.token);
  } else {
    const parsed = parseLicenceKey(credential.key);
    if (!parsed.ok) return { kind: parsed.reason === 'ChecksumMismatch' ? 'typo' : 'malformed' };
    credentialHash = hashLicenceKey(secretKey, parsed.key);
  }
  return {
    kind: 'hashed',
    credentialHash,
    cacheKey: `${credential.kind}:${credentialHash}:${orgId ?? ''}`,
  };
}

async function findLicence(
  deps: ValidateLicenceDeps,
  input: ValidateLicenceInput,
  identified: IdentifiedCredential,
  activeSince: Date,
): Promise<{ found?: LicenceForValidation; typo?: boolean; cacheKey?: string }> {
  if (identified.kind !== 'hashed') return { typo: identified.kind === 'typo' };
  const { credentialHash, cacheKey } = identified;
  const repository = createLicenceValidationRepository(deps.db);
  const cached = deps.cache?.get(cacheKey);
  if (cached) return { found: (await cached) ?? undefined, cacheKey };
  const lookup = (
    input.credential.kind === 'accessToken'
      ? repository.findByAccessTokenHash(credentialHash, input.orgId, activeSince)
      : repository.findByKeyHash(credentialHash, input.orgId, activeSince)
  ).then((row) => row ?? null);
  deps.cache?.set(cacheKey, lookup);
  let found: LicenceForValidation | undefined;
  try {
    found = (await lookup) ?? undefined;
  } catch (error) {
    deps.cache?.delete(cacheKey);
    throw error;
  }
  return { found, cacheKey };
}

/** `orgsInUse` counts the orgs that hold a slot: never more than the quota (invariant 1). */
function summaryOf(licence: Licence, entitlements: LicenceEntitlements, orgsActive: number) {
  const orgsInUse =
    typeof entitlements.orgs === 'number' ? Math.min(orgsActive, entitlements.orgs) : orgsActive;
  return {
    id: licence.id,
    type: licence.type,
    edition: licence.edition,
    quantity: licence.quantity,
    orgs: entitlements.orgs,
    orgsInUse,
    stacks: entitlements.stacks,
    features: entitlements.features,
    expiresAt: licence.expiresAt?.toISOString() ?? null,
  };
}

/**
 * Validates a licence key or access token for a product and optionally a Salesforce org: runs
 * the checks in their order of precedence, admits a new org if the quota allows, and signs a
 * certificate for that org and product with every valid answer that named an org.
 */
export async function validateLicence(
  deps: ValidateLicenceDeps,
  input: ValidateLicenceInput,
  identified: IdentifiedCredential = identifyCredential(
    deps.secretKey,
    input.credential,
    input.orgId,
  ),
): Promise<ValidationAnswer> {
  const now = deps.clock();
  const activeSince = new Date(now.getTime() - ORG_ACTIVE_DAYS * DAY_MS);
  const staleBefore = new Date(now.getTime() - TOUCH_INTERVAL_MS);
  const { found, typo, cacheKey } = await findLicence(deps, input, identified, activeSince);
  if (!found) {
    const result = checkLicence(undefined, input.productId, noOrgUsage, now);
    return {
      valid: false,
      code: result.code,
      detail: typo
        ? 'This licence key contains a typo: check it against the licence e-mail.'
        : result.detail,
      license: null,
    };
  }
  const { licence } = found;
  const entitlements = licenceEntitlements(licence);
  const limit = typeof entitlements.orgs === 'number' ? entitlements.orgs : null;
  // An org that has not validated within the activity window must fit the quota again.
  const known = found.orgLastSeenAt !== null && found.orgLastSeenAt >= activeSince;
  let orgsInUse = found.orgsInUse;
  let result = checkLicence(
    licence,
    input.productId,
    { orgId: input.orgId, known, rank: known ? found.orgRank : 0, inUse: orgsInUse, limit },
    now,
  );
  // Another product's key reveals nothing about the licence.
  if (result.code === 'PRODUCT_MISMATCH') {
    return { valid: false, code: result.code, detail: result.detail, license: null };
  }

  const repository = createLicenceValidationRepository(deps.db);
  let orgLastSeenAt = found.orgLastSeenAt;
  if (result.code === 'VALID' && input.orgId && !known) {
    const orgId = input.orgId;
    // Admit the org under a row lock, re-counting so concurrent admissions respect the quota.
    result = await deps.db.transaction(async (tx) => {
      await createLicenceValidationRepository(tx).lockLicence(licence.id);
      orgsInUse = await createLicenceValidationRepository(tx).countOrgsInUse(
        licence.id,
        activeSince,
      );
      // A concurrent validation may have admitted this very org since it was read.
      const lastSeen = await createLicenceValidationRepository(tx).orgLastSeen(licence.id, orgId);
      const admitted = lastSeen !== null && lastSeen >= activeSince;
      // Admitted a moment ago by a concurrent validation: it is the most recently used.
      const usage = { orgId, known: admitted, rank: 0, inUse: orgsInUse, limit };
      const recheck = checkLicence(licence, input.productId, usage, now);
      if (recheck.code === 'VALID') {
        await createLicenceValidationRepository(tx).recordOrgVisit(licence.id, orgId, now);
        if (!admitted) orgsInUse += 1;
        orgLastSeenAt = now;
      }
      return recheck;
    });
  } else if (
    result.code === 'VALID' &&
    input.orgId &&
    orgLastSeenAt &&
    orgLastSeenAt < staleBefore
  ) {
    await repository.touchOrg(licence.id, input.orgId, now, staleBefore);
    orgLastSeenAt = now;
  }
  let accessToken = found.accessToken;
  if (accessToken && (!accessToken.lastUsedAt || accessToken.lastUsedAt < staleBefore)) {
    await createAccessTokenRepository(deps.db).touch(accessToken.id, now, staleBefore);
    accessToken = { ...accessToken, lastUsedAt: now };
  }
  if (cacheKey && (orgLastSeenAt !== found.orgLastSeenAt || accessToken !== found.accessToken)) {
    // A visit just recorded makes the org the most recently used.
    const orgRank = orgLastSeenAt !== found.orgLastSeenAt ? 0 : found.orgRank;
    deps.cache?.set(
      cacheKey,
      Promise.resolve({ ...found, orgLastSeenAt, orgsInUse, orgRank, accessToken }),
    );
  }

  const license = summaryOf(licence, entitlements, orgsInUse);
  if (result.code !== 'VALID') {
    return { valid: false, code: result.code, detail: result.detail, license };
  }
  // Without an org the answer states the licence, but signs nothing that could stand for an org.
  if (!input.orgId) return { valid: true, code: 'VALID', detail: result.detail, license };
  // Invariant 9: a certificate never outlives the due date of an unpaid invoice.
  const creditUntil = found.unpaidInvoiceDueAt;
  if (creditUntil && creditUntil.getTime() <= now.getTime()) {
    return {
      valid: true,
      code: 'VALID',
      detail:
        'The licence is valid, but its invoice is past due: no certificate for offline use is issued until it is paid.',
      license,
    };
  }
  const subject: CertificateSubject = {
    licenceId: licence.id,
    type: licence.type,
    edition: licence.edition,
    quantity: licence.quantity,
    orgs: entitlements.orgs,
    stacks: entitlements.stacks,
    features: entitlements.features,
    orgId: input.orgId,
    productId: licence.productId,
    expiresAt: licence.expiresAt,
    creditUntil,
  };
  // A burst of validations with the same outcome shares one signature (issuedAt a few seconds old).
  // Everything the certificate states besides its times derives from these fields.
  const certificateKey = [
    licence.id,
    licence.type,
    licence.edition,
    licence.quantity,
    licence.productId,
    licence.expiresAt?.getTime() ?? '',
    creditUntil?.getTime() ?? '',
    input.orgId,
  ].join('|');
  let certificate = deps.certificates?.get(certificateKey);
  if (!certificate) {
    certificate = issueLicenceCertificate(deps.signingKey, subject, now);
    deps.certificates?.set(certificateKey, certificate);
  }
  return { valid: true, code: 'VALID', detail: result.detail, license, certificate };
}
