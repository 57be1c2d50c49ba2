import type { Permission } from './permissions.ts';

/**
 * The licence actions of the console (issue 40; decisions 227, 231) and the permission each needs:
 * one list, read by the server's endpoints (`runLicenceAction`) and the console's customer page,
 * which shows an operator only the actions their role allows.
 */
export const licenceActionPermissions = {
  suspend: 'licence.suspend',
  revoke: 'licence.revoke',
  reinstate: 'licence.suspend',
  'extend-trial': 'licence.extend_trial',
  'change-orgs': 'licence.change_orgs',
  'release-org': 'licence.release_org',
  'resend-key': 'licence.resend_key',
  'replace-key': 'licence.replace_key',
  'revoke-token': 'token.revoke',
} as const satisfies Record<string, Permission>;

export type LicenceActionName = keyof typeof licenceActionPermissions;

/** The longest reason an operator may give (the audit log keeps it). */
export const MAX_ACTION_REASON_LENGTH = 500;
