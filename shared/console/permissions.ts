/**
 * The operator console's roles and what each may do (decision 226): one list, read by the
 * server's guard (`requirePermission`), the console pages (which hide what a role cannot do) and
 * docs/console.md. A permission names a resource and an action, `licence.suspend`.
 */
export const permissions = {
  'licence.read': 'See licences, their orgs, keys (masked) and validations',
  'licence.suspend': 'Suspend and reinstate a licence',
  'licence.revoke': 'Revoke a licence for good (asks for the passkey again)',
  'licence.extend_trial': 'Extend a trial',
  'licence.change_orgs': 'Change how many orgs a licence allows',
  'licence.release_org': 'Release an org from a licence, so another can take its place',
  'licence.resend_key': 'Send a licence key to its holder again',
  'licence.replace_key': 'Replace a licence key (the old one stops working)',
  'token.revoke': 'Revoke access tokens of a licence',
  'operator.invite': 'Invite an operator',
  'operator.manage': "Change an operator's role, disable an operator",
  'audit.read': 'Read the audit log',
  'billing.read': 'See subscriptions, invoice orders, quotes, documents and e-mails sent',
  'email.resend': 'Send a failed e-mail again now, or resend a delivered one',
  'refund.request': 'Ask for a refund',
  'refund.approve': 'Approve a refund (asks for the passkey again)',
  'invoice_order.approve': 'Approve an invoice order (asks for the passkey again)',
  'change_request.answer': "Mark a customer's change request done or decline it",
} as const;

export type Permission = keyof typeof permissions;

export const allPermissions = Object.keys(permissions) as Permission[];

export function isPermission(value: string): value is Permission {
  return Object.hasOwn(permissions, value);
}

const readOnly: readonly Permission[] = ['licence.read', 'billing.read'];

/**
 * Each role's permissions. The owner may do everything; finance handles money; support the
 * licences of customers; a viewer reads.
 */
export const rolePermissions = {
  owner: allPermissions,
  finance: [
    ...readOnly,
    'audit.read',
    'refund.request',
    'refund.approve',
    'invoice_order.approve',
    'change_request.answer',
    'licence.suspend',
    'licence.resend_key',
    'email.resend',
  ],
  support: [
    ...readOnly,
    'audit.read',
    'licence.suspend',
    'licence.extend_trial',
    'licence.change_orgs',
    'licence.release_org',
    'licence.resend_key',
    'licence.replace_key',
    'token.revoke',
    'refund.request',
    'email.resend',
  ],
  viewer: readOnly,
} as const satisfies Record<string, readonly Permission[]>;

export type Role = keyof typeof rolePermissions;

export const roles = Object.keys(rolePermissions) as Role[];

export function isRole(value: string): value is Role {
  return Object.hasOwn(rolePermissions, value);
}

/** What one sentence says a role is for (the console's Operators page, docs/console.md). */
export const roleSummaries: Record<Role, string> = {
  owner: 'Everything, including operators and revocations',
  finance: 'Money: refunds, invoice orders, billing records, the audit log',
  support: "Customers' licences: suspend, extend trials, orgs, keys, tokens",
  viewer: 'Reads licences and billing records; changes nothing',
};

export function permissionsOf(role: Role): readonly Permission[] {
  return rolePermissions[role];
}

export function roleGrants(role: Role, permission: Permission): boolean {
  return (rolePermissions[role] as readonly Permission[]).includes(permission);
}

/**
 * Actions that move money or end a licence: the server asks for the passkey again when the
 * operator's last check is older than `STEP_UP_MAX_AGE_MS` (`requireRecentVerification`).
 */
export const stepUpPermissions: readonly Permission[] = [
  'licence.revoke',
  'refund.approve',
  'invoice_order.approve',
];

/** How old the last passkey check may be for an action of `stepUpPermissions`. */
export const STEP_UP_MAX_AGE_MS = 5 * 60 * 1000;

/** A session ends after this long without a request. */
export const CONSOLE_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
