import type { Permission, Role } from '#shared/console/permissions.ts';

/**
 * The operator of a console request, as the console listener's session middleware found them
 * (decision 226): `c.get('operator')` in every console handler. Absent on the public listener and
 * without a live session.
 */
export interface SignedInOperator {
  id: string;
  email: string;
  role: Role;
  /** What the role grants (`rolePermissions` of `#shared/console/permissions.ts`). */
  permissions: readonly Permission[];
  /** When the operator last proved it with their passkey: sign-in or step-up. */
  verifiedAt: Date;
}

/** What the console's session middleware hands the guards besides the operator. */
export interface ConsoleRequest {
  /** The request's time by the service's clock (tests move it). */
  now: Date;
  /** Writes the `authz.denied` audit event of a request the guard refused. */
  recordDenial(permission: Permission): Promise<void>;
}
