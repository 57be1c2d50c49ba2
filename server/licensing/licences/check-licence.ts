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

/** What the checks need to know about a licence. */
export interface LicenceState {
  type: 'Trial' | 'Free' | 'Paid';
  productId: string;
  expiresAt: Date | null;
  deactivatedAt: Date | null;
  deletionScheduledAt: Date | null;
  /** Revoked by an operator (decision 086); independent of the lifecycle fields above. */
  revokedAt: Date | null;
}

/** Orgs of the licence as seen by this validation. */
export interface OrgUsage {
  /** Canonical org id named by the request, or null when none was given. */
  orgId: string | null;
  /** The org has validated this licence before: it keeps working whatever the count. */
  known: boolean;
  /** Orgs currently counted against the licence. */
  inUse: number;
  /** Orgs the licence allows; null = unlimited. */
  limit: number | null;
}

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
  // (decision 086). It keeps the code set, so a CLI that knows DEACTIVATED handles it.
  if (licence.revokedAt && licence.revokedAt.getTime() <= now.getTime()) {
    return {
      code: 'DEACTIVATED',
      detail:
        'This licence was revoked by Orgsmith. Contact support if you think this is a mistake.',
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
  // Only a new org can exceed the quota; orgs that validated before keep working.
  if (orgs.orgId && !orgs.known && orgs.limit !== null && orgs.inUse >= orgs.limit) {
    return {
      code: 'TOO_MANY_ORGS',
      detail: `This licence covers ${orgs.limit} Salesforce ${orgs.limit === 1 ? 'org' : 'orgs'} and all are in use. Upgrade the licence to add org ${orgs.orgId}.`,
    };
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
