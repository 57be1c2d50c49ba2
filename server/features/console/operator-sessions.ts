import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { actingAs, attribute, currentAuditContext } from '#server/platform/audit/audit-context.ts';
import { recordAuditEvent } from '#server/platform/audit/audit-log-repository.ts';
import { keyedHash } from '#server/platform/crypto/keyed-hash.ts';
import { randomToken } from '#server/platform/http/random-token.ts';
import type { SignedInOperator } from '#server/platform/route-auth/signed-in-operator.ts';
import { CONSOLE_IDLE_TIMEOUT_MS, permissionsOf } from '#shared/console/permissions.ts';
import type { ConsolePorts } from './console-ports.ts';
import { enrolmentTokenHash } from './manage-operators.ts';
import {
  authenticationOptions,
  registrationOptions,
  relyingPartyOf,
  verifyAuthentication,
  verifyRegistration,
  type AuthenticationAnswer,
  type RegistrationAnswer,
} from './passkey-ceremony.ts';
import {
  createConsoleSessionRepository,
  createOperatorRepository,
  type OperatorRow,
} from './operator-repository.ts';

/** A session's `last_seen_at` is written at most this often (each write is a row update). */
const TOUCH_EVERY_MS = 30 * 1000;

export const operatorActor = (id: string) => `operator:${id}` as const;

export function sessionTokenHash(secretKey: string, token: string): string {
  return keyedHash(secretKey, 'console-session', token);
}

function signedIn(operator: OperatorRow, verifiedAt: Date): SignedInOperator {
  return {
    id: operator.id,
    email: operator.email,
    role: operator.role,
    permissions: permissionsOf(operator.role),
    verifiedAt,
  };
}

/** A new session for `operator`: its cookie token (returned once) and its row (by keyed hash). */
async function startSession(ports: ConsolePorts, operator: OperatorRow, now: Date) {
  const token = randomToken(32, 'base64url');
  const sessions = createConsoleSessionRepository(ports.db);
  // Sessions idle past the limit go as their operator signs in again.
  await sessions.sweep(new Date(now.getTime() - CONSOLE_IDLE_TIMEOUT_MS), now);
  await sessions.create(sessionTokenHash(ports.secretKey, token), operator.id, now);
  return token;
}

type EnrolmentLink =
  | { ok: true; operator: OperatorRow }
  | { ok: false; code: 'enrolmentLinkUnknown' | 'enrolmentLinkGone' };

async function openEnrolmentLink(
  ports: ConsolePorts,
  token: string,
  now: Date,
): Promise<EnrolmentLink> {
  const repository = createOperatorRepository(ports.db);
  const link = await repository.enrolment(enrolmentTokenHash(ports.secretKey, token));
  if (!link) return { ok: false, code: 'enrolmentLinkUnknown' };
  if (link.usedAt || link.expiresAt <= now) return { ok: false, code: 'enrolmentLinkGone' };
  const operator = await repository.byId(link.operatorId);
  if (!operator || operator.status === 'disabled') return { ok: false, code: 'enrolmentLinkGone' };
  return { ok: true, operator };
}

/** The passkey-creation options of an enrolment link, or why the link does not work. */
export async function enrolmentOptions(
  ports: ConsolePorts,
  token: string,
): Promise<
  | {
      ok: true;
      email: string;
      challengeId: string;
      options: PublicKeyCredentialCreationOptionsJSON;
    }
  | { ok: false; code: 'enrolmentLinkUnknown' | 'enrolmentLinkGone' }
> {
  const now = ports.clock();
  const link = await openEnrolmentLink(ports, token, now);
  if (!link.ok) return link;
  const { db } = ports;
  const existing = await createOperatorRepository(db).passkeysOf(link.operator.id);
  const { challengeId, options } = await registrationOptions(
    db,
    relyingPartyOf(ports.env.CONSOLE_ORIGIN),
    link.operator,
    existing,
    now,
  );
  return { ok: true, email: link.operator.email, challengeId, options };
}

export type SignInResult =
  | { ok: true; sessionToken: string; operator: SignedInOperator }
  | {
      ok: false;
      code: 'enrolmentLinkUnknown' | 'enrolmentLinkGone' | 'passkeyCheckFailed' | 'signInFailed';
    };

/**
 * Completes an enrolment: the passkey is verified (user verification required), the link is used
 * (a second use answers 410), the operator becomes active and is signed in. Audited as the
 * operator: `operator.passkey_added`, `operator.enrolled` (triggers), `operator.signed_in`.
 */
export async function completeEnrolment(
  ports: ConsolePorts,
  input: { token: string; challengeId: string; response: RegistrationAnswer },
): Promise<SignInResult> {
  const now = ports.clock();
  const link = await openEnrolmentLink(ports, input.token, now);
  if (!link.ok) return link;
  const { operator } = link;
  const { db } = ports;
  const challenge = await createConsoleSessionRepository(db).takeChallenge(
    input.challengeId,
    'enrol',
    now,
  );
  if (!challenge || challenge.operatorId !== operator.id) {
    return { ok: false, code: 'passkeyCheckFailed' };
  }
  const passkey = await verifyRegistration(
    relyingPartyOf(ports.env.CONSOLE_ORIGIN),
    challenge.challenge,
    input.response,
  );
  if (!passkey) return { ok: false, code: 'passkeyCheckFailed' };
  attribute({ actor: operatorActor(operator.id) });
  const enrolled = await db.transaction(async (tx) => {
    const repository = createOperatorRepository(tx);
    if (!(await repository.useEnrolment(enrolmentTokenHash(ports.secretKey, input.token), now))) {
      return undefined;
    }
    await repository.addPasskey({ ...passkey, operatorId: operator.id, createdAt: now });
    return repository.update(operator.id, { status: 'active' }, now);
  });
  if (!enrolled) return { ok: false, code: 'enrolmentLinkGone' };
  const sessionToken = await startSession(ports, enrolled, now);
  await recordAuditEvent(db, {
    action: 'operator.signed_in',
    targetType: 'operator',
    targetId: enrolled.id,
    subjectEmail: enrolled.email,
    after: { via: 'enrolment', credentialId: passkey.credentialId },
  });
  return { ok: true, sessionToken, operator: signedIn(enrolled, now) };
}

/** Options for the sign-in page: any passkey of this console (they are discoverable). */
export async function signInOptions(
  ports: ConsolePorts,
): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  return authenticationOptions(
    ports.db,
    relyingPartyOf(ports.env.CONSOLE_ORIGIN),
    'sign_in',
    null,
    [],
    ports.clock(),
  );
}

/**
 * Signs an operator in by a passkey. Any failure is the same answer to the caller, and an
 * `operator.sign_in_failed` event saying which (unknown challenge or passkey, disabled operator,
 * signature or user verification); a success an `operator.signed_in` event.
 */
export async function completeSignIn(
  ports: ConsolePorts,
  input: { challengeId: string; response: AuthenticationAnswer },
): Promise<SignInResult> {
  const now = ports.clock();
  const { db } = ports;
  const operators = createOperatorRepository(db);
  const failed = async (why: string, operator?: OperatorRow): Promise<SignInResult> => {
    if (operator) attribute({ actor: operatorActor(operator.id) });
    await recordAuditEvent(db, {
      action: 'operator.sign_in_failed',
      targetType: 'operator',
      targetId: operator?.id ?? 'unknown',
      subjectEmail: operator?.email ?? null,
      after: { why, credentialId: input.response.id.slice(0, 200) },
    });
    return { ok: false, code: 'signInFailed' };
  };
  const challenge = await createConsoleSessionRepository(db).takeChallenge(
    input.challengeId,
    'sign_in',
    now,
  );
  if (!challenge) return failed('unknown or expired challenge');
  const passkey = await operators.passkey(input.response.id);
  if (!passkey) return failed('unknown passkey');
  const operator = await operators.byId(passkey.operatorId);
  if (!operator) return failed('unknown passkey');
  if (operator.status !== 'active') return failed(`operator ${operator.status}`, operator);
  const verdict = await verifyAuthentication(
    relyingPartyOf(ports.env.CONSOLE_ORIGIN),
    challenge.challenge,
    input.response,
    passkey,
  );
  if (!verdict) return failed('the passkey did not verify', operator);
  attribute({ actor: operatorActor(operator.id) });
  await operators.passkeyUsed(passkey.credentialId, verdict.counter, now);
  const sessionToken = await startSession(ports, operator, now);
  await recordAuditEvent(db, {
    action: 'operator.signed_in',
    targetType: 'operator',
    targetId: operator.id,
    subjectEmail: operator.email,
    after: { via: 'passkey', credentialId: passkey.credentialId },
  });
  return { ok: true, sessionToken, operator: signedIn(operator, now) };
}

/**
 * The operator of a session cookie's token: undefined when there is no such session, it has
 * been idle for 30 minutes (it is deleted), or its operator is no longer active. A live session's
 * idle time starts again.
 */
export async function readSession(
  ports: ConsolePorts,
  token: string,
): Promise<SignedInOperator | undefined> {
  const now = ports.clock();
  const sessions = createConsoleSessionRepository(ports.db);
  const tokenHash = sessionTokenHash(ports.secretKey, token);
  const found = await sessions.live(tokenHash, new Date(now.getTime() - CONSOLE_IDLE_TIMEOUT_MS));
  if (!found) {
    await sessions.end(tokenHash);
    return undefined;
  }
  if (found.operator.status !== 'active') return undefined;
  if (now.getTime() - found.session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    await sessions.touch(tokenHash, now);
  }
  return signedIn(found.operator, found.session.verifiedAt);
}

/** Ends the session of `token`, if any, with an `operator.signed_out` event. */
export async function signOut(ports: ConsolePorts, token: string): Promise<boolean> {
  const { db } = ports;
  const ended = await createConsoleSessionRepository(db).end(
    sessionTokenHash(ports.secretKey, token),
  );
  if (!ended) return false;
  // Named as the operator who left, with the request's id.
  const context = currentAuditContext();
  await actingAs({ ...context, actor: operatorActor(ended.operatorId) }, () =>
    recordAuditEvent(db, {
      action: 'operator.signed_out',
      targetType: 'operator',
      targetId: ended.operatorId,
    }),
  );
  return true;
}

/** Options to prove the signed-in operator's passkey again (step-up). */
export async function stepUpOptions(
  ports: ConsolePorts,
  operator: SignedInOperator,
): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const { db } = ports;
  const passkeys = await createOperatorRepository(db).passkeysOf(operator.id);
  return authenticationOptions(
    db,
    relyingPartyOf(ports.env.CONSOLE_ORIGIN),
    'step_up',
    operator.id,
    passkeys,
    ports.clock(),
  );
}

/**
 * Step-up: the signed-in operator proves one of their own passkeys again, and the session's
 * last check becomes now (`requireRecentVerification` then lets money and licence-ending
 * actions through for 5 minutes). Audited `operator.verified`.
 */
export async function completeStepUp(
  ports: ConsolePorts,
  operator: SignedInOperator,
  sessionToken: string,
  input: { challengeId: string; response: AuthenticationAnswer },
): Promise<{ ok: true; verifiedAt: Date } | { ok: false; code: 'passkeyCheckFailed' }> {
  const now = ports.clock();
  const { db } = ports;
  const challenge = await createConsoleSessionRepository(db).takeChallenge(
    input.challengeId,
    'step_up',
    now,
  );
  const operators = createOperatorRepository(db);
  const passkey = await operators.passkey(input.response.id);
  const verdict =
    challenge && challenge.operatorId === operator.id && passkey?.operatorId === operator.id
      ? await verifyAuthentication(
          relyingPartyOf(ports.env.CONSOLE_ORIGIN),
          challenge.challenge,
          input.response,
          passkey,
        )
      : undefined;
  if (!verdict || !passkey) return { ok: false, code: 'passkeyCheckFailed' };
  await operators.passkeyUsed(passkey.credentialId, verdict.counter, now);
  await createConsoleSessionRepository(db).verified(
    sessionTokenHash(ports.secretKey, sessionToken),
    now,
  );
  await recordAuditEvent(db, {
    action: 'operator.verified',
    targetType: 'operator',
    targetId: operator.id,
    subjectEmail: operator.email,
  });
  return { ok: true, verifiedAt: now };
}
