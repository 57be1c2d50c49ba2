import { randomInt, randomUUID } from 'node:crypto';
import {
  LICENCE_PAGE_CONTINUE,
  LICENCE_SESSION_MINUTES,
  SIGN_IN_CODE_MINUTES,
  SIGN_IN_CODE_TRIES,
} from '#shared/contracts/licence-page.ts';
import { createLicenceRepository } from '#server/licensing/licences/licence-repository.ts';
import { constantTimeEqual } from '#server/platform/crypto/constant-time-equal.ts';
import { keyedHash } from '#server/platform/crypto/keyed-hash.ts';
import type { Database } from '#server/platform/db/database.ts';
import { createOutboxRepository } from '#server/platform/email/outbox-repository.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { randomToken } from '#server/platform/http/random-token.ts';
import { signInCodeEmail } from './emails/sign-in-code-email.ts';
import { createLicencePageRepository } from './licence-page-repository.ts';

const MINUTE_MS = 60_000;

export interface SignInDeps {
  db: Database;
  secretKey: string;
  publicBaseUrl: string;
  clock: () => Date;
}

function codeHash(secretKey: string, signInId: string, code: string): string {
  return keyedHash(secretKey, 'licence-page-code', `${signInId}:${code}`);
}

export function sessionIdHash(secretKey: string, sessionId: string): string {
  return keyedHash(secretKey, 'licence-page-session', sessionId);
}

/**
 * "Sign in to your licences": when the address (any spelling) holds a licence, records a code and
 * a link (hashes only) and queues the e-mail to the address the newest licence was issued to.
 * Says nothing about whether it did — the caller answers the same either way. True if queued.
 */
export async function requestSignInCode(deps: SignInDeps, emailAddress: string): Promise<boolean> {
  const now = deps.clock();
  const normalized = normalizeEmailAddress(emailAddress);
  const [newest] = await createLicenceRepository(deps.db).findByNormalizedEmail(normalized);
  if (!newest) return false;
  const id = randomUUID();
  const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
  const linkToken = randomToken(32, 'base64url');
  const expiresAt = new Date(now.getTime() + SIGN_IN_CODE_MINUTES * MINUTE_MS);
  await deps.db.transaction(async (tx) => {
    await createLicencePageRepository(tx).insertSignIn({
      id,
      emailNormalized: normalized,
      codeHash: codeHash(deps.secretKey, id, code),
      linkHash: keyedHash(deps.secretKey, 'licence-page-link', linkToken),
      createdAt: now,
      expiresAt,
    });
    const email = signInCodeEmail({
      email: newest.email,
      code,
      continueUrl: `${deps.publicBaseUrl}${LICENCE_PAGE_CONTINUE}?token=${linkToken}`,
      publicBaseUrl: deps.publicBaseUrl,
    });
    // Mail goes to the address a licence was issued to, never to the spelling typed in the form.
    await createOutboxRepository(tx).enqueue(
      { ...email, kind: 'licence-page-sign-in', to: newest.email },
      now,
    );
  });
  return true;
}

export interface OpenedSession {
  /** The cookie's value; only its keyed hash is stored. */
  sessionId: string;
  emailNormalized: string;
  expiresAt: Date;
}

async function openSession(
  deps: SignInDeps,
  tx: Parameters<Parameters<Database['transaction']>[0]>[0],
  emailNormalized: string,
  now: Date,
): Promise<OpenedSession> {
  const sessionId = randomToken(32, 'base64url');
  const expiresAt = new Date(now.getTime() + LICENCE_SESSION_MINUTES * MINUTE_MS);
  await createLicencePageRepository(tx).insertSession({
    idHash: sessionIdHash(deps.secretKey, sessionId),
    emailNormalized,
    createdAt: now,
    expiresAt,
  });
  return { sessionId, emailNormalized, expiresAt };
}

/**
 * The code typed on the page: checked against the address's newest live sign-in only. A wrong
 * code counts; the fifth wrong one ends the sign-in. A right one ends it too (single use) and
 * opens a session.
 */
export async function signInWithCode(
  deps: SignInDeps,
  emailAddress: string,
  code: string,
): Promise<OpenedSession | undefined> {
  const now = deps.clock();
  const normalized = normalizeEmailAddress(emailAddress);
  // The failed try is committed even though the sign-in is refused.
  return deps.db.transaction(async (tx) => {
    const repository = createLicencePageRepository(tx);
    const signIn = await repository.lockNewestLiveSignIn(normalized, now);
    if (!signIn) return undefined;
    if (!constantTimeEqual(signIn.codeHash, codeHash(deps.secretKey, signIn.id, code))) {
      await repository.recordFailedTry(signIn.id, SIGN_IN_CODE_TRIES, now);
      return undefined;
    }
    await repository.markUsed(signIn.id, now);
    return openSession(deps, tx, signIn.emailNormalized, now);
  });
}

/** The e-mailed link's token, sent by the "Continue" button (a POST): single use, 15 minutes. */
export async function signInWithLink(
  deps: SignInDeps,
  token: string,
): Promise<OpenedSession | undefined> {
  const now = deps.clock();
  return deps.db.transaction(async (tx) => {
    const repository = createLicencePageRepository(tx);
    const signIn = await repository.lockSignInByLinkHash(
      keyedHash(deps.secretKey, 'licence-page-link', token),
    );
    if (!signIn || signIn.usedAt || signIn.expiresAt <= now) return undefined;
    await repository.markUsed(signIn.id, now);
    return openSession(deps, tx, signIn.emailNormalized, now);
  });
}

/** The address a session cookie signs in, while the session lasts. */
export async function readSession(
  deps: Pick<SignInDeps, 'db' | 'secretKey' | 'clock'>,
  sessionId: string | undefined,
): Promise<{ emailNormalized: string; expiresAt: Date } | undefined> {
  if (!sessionId || sessionId.length > 100) return undefined;
  const session = await createLicencePageRepository(deps.db).findLiveSession(
    sessionIdHash(deps.secretKey, sessionId),
    deps.clock(),
  );
  return session && { emailNormalized: session.emailNormalized, expiresAt: session.expiresAt };
}

/** Sign-out: the session ends on the server, whatever the browser keeps. */
export async function endSession(
  deps: Pick<SignInDeps, 'db' | 'secretKey' | 'clock'>,
  sessionId: string | undefined,
): Promise<void> {
  if (!sessionId || sessionId.length > 100) return;
  await createLicencePageRepository(deps.db).endSession(
    sessionIdHash(deps.secretKey, sessionId),
    deps.clock(),
  );
}
