import { siteConfig } from '#shared/site-config.ts';

/** How long a served security.txt stays valid; RFC 9116 asks for less than a year. */
const VALID_DAYS = 180;

/**
 * `/.well-known/security.txt` (RFC 9116): where to report a vulnerability and what we promise.
 * Written when asked, so `Expires` always lies half a year ahead.
 */
export function securityTxt(publicBaseUrl: string, now: Date): string {
  const expires = new Date(now.getTime() + VALID_DAYS * 24 * 60 * 60 * 1000);
  expires.setUTCHours(0, 0, 0, 0);
  return [
    `Contact: mailto:${siteConfig.securityEmail}`,
    `Expires: ${expires.toISOString()}`,
    `Preferred-Languages: en, de`,
    `Canonical: ${publicBaseUrl}/.well-known/security.txt`,
    `Policy: ${publicBaseUrl}/support#security`,
    '',
  ].join('\n');
}
