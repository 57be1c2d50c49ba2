import { siteConfig } from '#shared/site-config.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The start-up warns this long before security.txt's `Expires` (decision 160). */
export const SECURITY_TXT_WARN_DAYS = 30;

const expiresPattern =
  /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/**
 * `SECURITY_TXT_EXPIRES` as a date: `2027-05-31` (midnight UTC) or a full ISO date and time with
 * its zone; undefined for anything else, an impossible day (`2027-02-30`) included.
 */
export function parseSecurityTxtExpires(value: string): Date | undefined {
  const match = expiresPattern.exec(value.trim());
  if (!match) return undefined;
  const [, year, month, day] = match;
  const calendarDay = new Date(`${year}-${month}-${day}T00:00:00Z`);
  if (Number.isNaN(calendarDay.getTime())) return undefined;
  if (calendarDay.toISOString().slice(0, 10) !== `${year}-${month}-${day}`) return undefined;
  const date = new Date(value.trim().length === 10 ? `${value.trim()}T00:00:00Z` : value.trim());
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * What is wrong with `expires` at start-up, for a warning (RFC 9116 §2.5.5): past, within 30
 * days, or more than a year ahead; undefined when it is fine.
 */
export function securityTxtExpiryProblem(expires: Date, now: Date): string | undefined {
  const days = (expires.getTime() - now.getTime()) / DAY_MS;
  if (days <= 0) {
    return 'security.txt has expired: set SECURITY_TXT_EXPIRES to a date less than a year ahead';
  }
  if (days <= SECURITY_TXT_WARN_DAYS) {
    return `security.txt expires in ${Math.ceil(days)} days: renew SECURITY_TXT_EXPIRES`;
  }
  if (days > 366) {
    return 'security.txt expires more than a year ahead: RFC 9116 asks for less than a year';
  }
  return undefined;
}

/**
 * `/.well-known/security.txt` (RFC 9116): where to report a vulnerability and what we promise.
 * `Expires` is the configured date (SECURITY_TXT_EXPIRES), so a stale policy says so.
 */
export function securityTxt(publicBaseUrl: string, expires: Date): string {
  return [
    `Contact: mailto:${siteConfig.securityEmail}`,
    `Expires: ${expires.toISOString()}`,
    `Preferred-Languages: en, de`,
    `Canonical: ${publicBaseUrl}/.well-known/security.txt`,
    `Policy: ${publicBaseUrl}/security#report`,
    '',
  ].join('\n');
}
