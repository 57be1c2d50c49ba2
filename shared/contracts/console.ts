import * as z from 'zod/mini';
import { emailAddressField } from './fields.ts';
import { allPermissions, roles, type Permission, type Role } from '../console/permissions.ts';

export {
  CONSOLE_API,
  CONSOLE_ENROL_PATH,
  CONSOLE_SESSION_COOKIE,
  isConsolePath,
} from '../console/paths.ts';

export const consoleErrorCodes = {
  /** The passkey did not prove an operator who may sign in (unknown, disabled, bad signature). */
  signInFailed: 'SignInFailed',
  /** No enrolment link has this token. */
  enrolmentLinkUnknown: 'EnrolmentLinkUnknown',
  /** The enrolment link was used, replaced by a newer one, or is older than 24 hours. */
  enrolmentLinkGone: 'EnrolmentLinkGone',
  /** A passkey ceremony's answer that does not verify, or whose challenge is unknown or old. */
  passkeyCheckFailed: 'PasskeyCheckFailed',
  operatorExists: 'OperatorExists',
  operatorNotFound: 'OperatorNotFound',
  /** The change would leave no owner who can sign in. */
  lastOwner: 'LastOwner',
  /** An operator acting on their own role or access. */
  ownAccount: 'OwnAccount',
} as const;

export const consoleMessages = {
  signInFailed: 'That passkey does not sign in an operator of this console.',
  enrolmentLinkUnknown: 'This enrolment link is not valid. Ask an owner for a new invitation.',
  enrolmentLinkGone:
    'This enrolment link was already used or has expired. Ask an owner for a new invitation.',
  passkeyCheckFailed: 'The passkey check did not succeed. Please try again.',
  operatorExists: 'There is already an operator with this address.',
  operatorNotFound: 'There is no operator with this id.',
  lastOwner: 'This would leave no owner who can sign in.',
  ownAccount: 'You cannot change your own role or disable yourself.',
} as const;

const roleField = z.enum(roles as [Role, ...Role[]], {
  error: `role must be one of ${roles.join(', ')}.`,
});

const idField = z.string().check(z.minLength(1), z.maxLength(100));
const base64url = z.string().check(z.maxLength(16_384), z.regex(/^[A-Za-z0-9_-]*$/));

/** A passkey's answer to `navigator.credentials.create()` as @simplewebauthn/browser sends it. */
export const registrationResponseSchema = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
  clientExtensionResults: z.optional(z.record(z.string(), z.unknown())),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    authenticatorData: z.optional(base64url),
    transports: z.optional(z.array(z.string().check(z.maxLength(40))).check(z.maxLength(10))),
    publicKeyAlgorithm: z.optional(z.number()),
    publicKey: z.optional(base64url),
  }),
});

/** A passkey's answer to `navigator.credentials.get()`. */
export const authenticationResponseSchema = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
  clientExtensionResults: z.optional(z.record(z.string(), z.unknown())),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: z.optional(base64url),
  }),
});

const challengeIdField = z.uuid('challengeId must be the id the options gave.');
const enrolmentTokenField = z.string().check(z.regex(/^[A-Za-z0-9_-]{32}$/, 'token is not valid.'));

export const enrolmentOptionsRequestSchema = z.strictObject({ token: enrolmentTokenField });
export const enrolmentRequestSchema = z.strictObject({
  token: enrolmentTokenField,
  challengeId: challengeIdField,
  response: registrationResponseSchema,
});
export const passkeyAnswerRequestSchema = z.strictObject({
  challengeId: challengeIdField,
  response: authenticationResponseSchema,
});

export const inviteOperatorRequestSchema = z.strictObject({
  email: emailAddressField,
  role: roleField,
});
export const changeRoleRequestSchema = z.strictObject({ role: roleField });

/** An operator as the console shows them. */
export const operatorSchema = z.object({
  id: idField,
  email: z.string(),
  role: roleField,
  status: z.enum(['invited', 'active', 'disabled']),
  createdAt: z.string(),
  disabledAt: z.nullable(z.string()),
});
export type OperatorView = z.output<typeof operatorSchema>;

/** Who is signed in: what `GET /console/api/session` answers. */
export const sessionSchema = z.object({
  operator: z.object({
    id: idField,
    email: z.string(),
    role: roleField,
    permissions: z.array(z.enum(allPermissions as [Permission, ...Permission[]])),
  }),
  verifiedAt: z.string(),
});
export type ConsoleSessionView = z.output<typeof sessionSchema>;
