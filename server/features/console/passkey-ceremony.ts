import { randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { z } from 'zod/mini';
import type {
  authenticationResponseSchema,
  registrationResponseSchema,
} from '#shared/contracts/console.ts';
import type { Executor } from '#server/platform/db/database.ts';
import {
  createConsoleSessionRepository,
  type ChallengePurpose,
  type PasskeyRow,
} from './operator-repository.ts';

/**
 * Passkeys by @simplewebauthn/server (decision 226): no WebAuthn of our own. The relying party is
 * the host name of CONSOLE_ORIGIN, user verification is required at every ceremony, and each
 * challenge is kept server-side and used once.
 */

/** How long a ceremony's challenge lasts: the browser's prompt, and a person deciding. */
const CHALLENGE_TTL_MS = 5 * 60 * 1000;

export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

export function relyingPartyOf(consoleOrigin: string): RelyingParty {
  const url = new URL(consoleOrigin);
  return { id: url.hostname, name: 'Orgsmith console', origin: url.origin };
}

export type RegistrationAnswer = z.output<typeof registrationResponseSchema>;
export type AuthenticationAnswer = z.output<typeof authenticationResponseSchema>;

async function keepChallenge(
  db: Executor,
  challenge: string,
  purpose: ChallengePurpose,
  operatorId: string | null,
  now: Date,
): Promise<string> {
  const id = randomUUID();
  await createConsoleSessionRepository(db).addChallenge({
    id,
    challenge,
    purpose,
    operatorId,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
  return id;
}

const transportsOf = (passkey: PasskeyRow) =>
  passkey.transports ? passkey.transports.split(',') : [];

/** Options to create a passkey for `operator`; their challenge is kept under the returned id. */
export async function registrationOptions(
  db: Executor,
  rp: RelyingParty,
  operator: { id: string; email: string },
  existing: readonly PasskeyRow[],
  now: Date,
): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: operator.email,
    userID: new TextEncoder().encode(operator.id),
    attestationType: 'none',
    timeout: CHALLENGE_TTL_MS,
    excludeCredentials: existing.map((passkey) => ({
      id: passkey.credentialId,
      transports: transportsOf(passkey),
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  const challengeId = await keepChallenge(db, options.challenge, 'enrol', operator.id, now);
  return { challengeId, options };
}

/** Options to prove a passkey: any of this console's (sign-in) or one of `passkeys` (step-up). */
export async function authenticationOptions(
  db: Executor,
  rp: RelyingParty,
  purpose: 'sign_in' | 'step_up',
  operatorId: string | null,
  passkeys: readonly PasskeyRow[],
  now: Date,
): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'required',
    timeout: CHALLENGE_TTL_MS,
    allowCredentials: passkeys.map((passkey) => ({
      id: passkey.credentialId,
      transports: transportsOf(passkey),
    })),
  });
  const challengeId = await keepChallenge(db, options.challenge, purpose, operatorId, now);
  return { challengeId, options };
}

/** A new passkey, verified; undefined when the answer does not verify. */
export async function verifyRegistration(
  rp: RelyingParty,
  expectedChallenge: string,
  answer: RegistrationAnswer,
): Promise<
  { credentialId: string; publicKey: string; counter: number; transports: string } | undefined
> {
  const response: RegistrationResponseJSON = {
    id: answer.id,
    rawId: answer.rawId,
    type: answer.type,
    clientExtensionResults: {},
    ...(answer.authenticatorAttachment
      ? { authenticatorAttachment: answer.authenticatorAttachment }
      : {}),
    response: {
      clientDataJSON: answer.response.clientDataJSON,
      attestationObject: answer.response.attestationObject,
      ...(answer.response.transports
        ? { transports: answer.response.transports.filter(isTransport) }
        : {}),
    },
  };
  try {
    const verdict = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
    if (!verdict.verified || !verdict.registrationInfo.userVerified) return undefined;
    const { credential } = verdict.registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: (credential.transports ?? []).join(','),
    };
  } catch {
    return undefined;
  }
}

const transports = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;
type Transport = (typeof transports)[number];
function isTransport(value: string): value is Transport {
  return (transports as readonly string[]).includes(value);
}

/** Whether `answer` proves `passkey` for the challenge; its new counter if so. */
export async function verifyAuthentication(
  rp: RelyingParty,
  expectedChallenge: string,
  answer: AuthenticationAnswer,
  passkey: PasskeyRow,
): Promise<{ counter: number } | undefined> {
  const response: AuthenticationResponseJSON = {
    id: answer.id,
    rawId: answer.rawId,
    type: answer.type,
    clientExtensionResults: {},
    response: {
      clientDataJSON: answer.response.clientDataJSON,
      authenticatorData: answer.response.authenticatorData,
      signature: answer.response.signature,
      ...(answer.response.userHandle ? { userHandle: answer.response.userHandle } : {}),
    },
  };
  try {
    const verdict = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: passkey.credentialId,
        publicKey: isoBase64URL.toBuffer(passkey.publicKey),
        counter: passkey.counter,
        transports: transportsOf(passkey).filter(isTransport),
      },
    });
    if (!verdict.verified || !verdict.authenticationInfo.userVerified) return undefined;
    return { counter: verdict.authenticationInfo.newCounter };
  } catch {
    return undefined;
  }
}
