import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKUP_EVERY_MS, DEFAULT_BACKUP_KEEP } from '#server/backup/backup-interval.ts';
import {
  DELETION_NOTICE_MONTHS,
  RETENTION_AFTER_END_MONTHS,
} from '#server/billing/subscriptions/lifecycle-rules.ts';
import { PORTAL_TOKEN_TTL_MS } from '#server/billing/billing-portal/portal-token.ts';
import { RETIRED_KEY_PUBLISHED_MS } from '#server/licensing/licence-certificates/key-set.ts';
import { CERTIFICATE_LIFETIME_DAYS } from '#server/licensing/licence-certificates/licence-certificate-contract.ts';
import { LICENCE_KEY_SET_PATH } from '#server/licensing/licence-certificates/licence-certificate-routes.ts';
import { KEY_REPLACEMENT_TOKEN_HOURS } from '#server/licensing/licence-recovery/key-replacement-token.ts';
import { SECURITY_TXT_PATH } from '#server/features/security-contact/security-contact-routes.ts';
import { securityFacts } from './security.tsx';

const HOUR_MS = 60 * 60 * 1000;

/** Every number /security states is the one the service runs with (decision 188). */
describe('the security page states what the code does', () => {
  it('certificates: lifetime, retired keys and where the keys are', () => {
    expect(securityFacts.certificateLifetimeDays).toBe(CERTIFICATE_LIFETIME_DAYS);
    expect(securityFacts.retiredKeyPublishedDays * 24 * HOUR_MS).toBe(RETIRED_KEY_PUBLISHED_MS);
    expect(securityFacts.keySetPath).toBe(LICENCE_KEY_SET_PATH);
  });

  it('key-replacement links last as long as the page says', () => {
    expect(securityFacts.linkHours).toBe(KEY_REPLACEMENT_TOKEN_HOURS);
    expect(securityFacts.linkHours * HOUR_MS).toBe(PORTAL_TOKEN_TTL_MS);
  });

  it('retention and backups', () => {
    expect(securityFacts.retentionAfterEndMonths).toBe(RETENTION_AFTER_END_MONTHS);
    expect(securityFacts.deletionNoticeMonths).toBe(DELETION_NOTICE_MONTHS);
    expect(securityFacts.backupEveryHours * HOUR_MS).toBe(DEFAULT_BACKUP_EVERY_MS);
    expect(securityFacts.backupsKept).toBe(DEFAULT_BACKUP_KEEP);
    expect(securityFacts.securityTxtPath).toBe(SECURITY_TXT_PATH);
  });
});
