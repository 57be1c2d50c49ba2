/** Machine codes of a validation, in the order the checks run (the first failing check wins). */
export const validationCodes = [
  'VALID',
  'NOT_FOUND',
  'PRODUCT_MISMATCH',
  'PENDING_DELETION',
  'DEACTIVATED',
  'EXPIRED',
  'TOO_MANY_ORGS',
] as const;

export type ValidationCode = (typeof validationCodes)[number];

/** An org counts against the quota while it validated within this many days (decision 073). */
export const ORG_ACTIVE_DAYS = 30;

/** What the checks need to know about a licence. */
export interface LicenceState {
  type: 'Trial' | 'Free' | 'Paid';
  productId: string;
  expiresAt: Date | null;
  deactivatedAt: Date | null;
  deletionScheduledAt: Date | null;
  /** Revoked by an operator (decision 086); independent of the lifecycle fields above. */
  revokedAt: Date | null;
  /** The stop under `revokedAt` is support's suspension (decision 248). */
  suspended: boolean;
}

/** Orgs of the licence as seen by this validation. */
export interface OrgUsage {
  /** Canonical org id named by the request, or null when none was given. */
  orgId: string | null;
  /** The org has validated this licence within the activity window. */
  known: boolean;
  /**
   * For a known org: how many active orgs of the licence were used more recently (ties broken by
   * org id); it holds a slot while this is below the quota (invariant 1, decision 215). 0 otherwise.
   */
  rank: number;
  /** Orgs currently counted against the licence. */
  inUse: number;
  /** Orgs the licence allows; null = unlimited. */
  limit: number | null;
}

/** The usage of a check that names no org: only the licence's own state is checked. */
export const noOrgUsage: OrgUsage = { orgId: null, known: false, rank: 0, inUse: 0, limit: null };

export interface CheckResult {
  code: ValidationCode;
  detail: string;
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Runs the validation checks in their stated order of precedence. */
export function checkLicence(
  licence: LicenceState | undefined,
  productId: string,
  orgs: OrgUsage,
  now: Date,
): CheckResult {
  // No licence has this key (or the access token is unknown or revoked): nothing else to say.
  if (!licence) {
    return {
      code: 'NOT_FOUND',
      detail: 'No licence matches this licence key or access token.',
    };
  }
  // A key for another product must not reveal anything about that licence's state.
  if (licence.productId !== productId) {
    return {
      code: 'PRODUCT_MISMATCH',
      detail: `This licence is not valid for the product ${productId}.`,
    };
  }
  // Marked for deletion outranks deactivated: it can no longer be reactivated.
  if (licence.deletionScheduledAt && licence.deletionScheduledAt.getTime() <= now.getTime()) {
    return {
      code: 'PENDING_DELETION',
      detail:
        'This licence was deactivated more than two months ago and is about to be deleted. Buy a new licence to keep using the tool.',
    };
  }
  // Revoked by an operator: deactivated with its own reason, which neither paying nor waiting lifts
  // (decision 086). It keeps the issue's code set, so a CLI that knows DEACTIVATED handles it.
  if (licence.revokedAt && licence.revokedAt.getTime() <= now.getTime()) {
    return {
      code: 'DEACTIVATED',
      detail: licence.suspended
        ? 'This licence is suspended by Orgsmith support. Contact support to have it reinstated.'
        : 'This licence was revoked by Orgsmith. Contact support if you think this is a mistake.',
    };
  }
  // Deactivated (lapsed payment) but still within its reactivation window.
  if (licence.deactivatedAt && licence.deactivatedAt.getTime() <= now.getTime()) {
    return {
      code: 'DEACTIVATED',
      detail:
        'This licence is deactivated. Settle the subscription in the billing portal to reactivate it, or contact support.',
    };
  }
  // Past its end date; a deactivated licence reports that first as it is the cause to fix.
  if (licence.expiresAt && licence.expiresAt.getTime() <= now.getTime()) {
    return {
      code: 'EXPIRED',
      detail:
        licence.type === 'Trial'
          ? `This trial licence expired on ${day(licence.expiresAt)}. Buy a licence or switch to the free Starter edition.`
          : `This licence expired on ${day(licence.expiresAt)}.`,
    };
  }
  // Invariant 1 (quota, decision 215): at most `limit` orgs validate at any moment, whatever
  // shrank the quota. A known org keeps its slot while fewer than `limit` orgs were used more
  // recently; a new org needs a free slot.
  if (orgs.orgId && orgs.limit !== null) {
    const holdsSlot = orgs.known ? orgs.rank < orgs.limit : orgs.inUse < orgs.limit;
    if (!holdsSlot) return tooManyOrgs(orgs.orgId, orgs.limit, orgs.known);
  }
  // Valid either way, but only a named org earns a certificate (decision 151): the detail says so.
  if (!orgs.orgId) {
    return {
      code: 'VALID',
      detail:
        'The licence is valid. Send the orgId of the org you work on to receive a certificate for offline use.',
    };
  }
  return { code: 'VALID', detail: 'The licence is valid.' };
}

function tooManyOrgs(orgId: string, limit: number, known: boolean): CheckResult {
  const orgs = `${limit} Salesforce ${limit === 1 ? 'org' : 'orgs'}`;
  const taken = known
    ? `This licence covers ${orgs} and ${limit === 1 ? 'another was' : `${limit} others were`} used more recently.`
    : `This licence covers ${orgs} and all are in use.`;
  return {
    code: 'TOO_MANY_ORGS',
    detail: `${taken} An org frees its slot ${ORG_ACTIVE_DAYS} days after it last validated; to use org ${orgId} now, upgrade the licence.`,
  };
}
