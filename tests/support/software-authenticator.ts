import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A passkey authenticator in software, for API tests (decision 226): it makes the same
 * registration and assertion answers a browser's platform authenticator sends — a P-256 key,
 * attestation "none", user present and verified — so the tests go through the server's real
 * enrolment and sign-in code. Browsers are driven with Chromium's virtual authenticator instead.
 */
export interface SoftwarePasskey {
  credentialId: string;
  userHandle: string;
  privateKey: KeyObject;
  counter: number;
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string) {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
}

/** Flags: user present, user verified, and (for a registration) attested credential data. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

function authenticatorData(rpId: string, flags: number, counter: number, attested?: Buffer) {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, attested ?? Buffer.alloc(0)]);
}

function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  const map = new Map<number, number | Uint8Array>([
    [1, 2], // kty: EC2
    [3, -7], // alg: ES256
    [-1, 1], // crv: P-256
    [-2, isoBase64URL.toBuffer(jwk.x ?? '')],
    [-3, isoBase64URL.toBuffer(jwk.y ?? '')],
  ]);
  return isoCBOR.encode(map);
}

export interface RegistrationOptionsJson {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

export interface AuthenticationOptionsJson {
  challenge: string;
  rpId?: string;
}

export function createSoftwareAuthenticator(origin: string) {
  const rpIdOf = (id: string | undefined) => id ?? new URL(origin).hostname;
  return {
    /** The answer to `navigator.credentials.create(options)`, and the passkey it made. */
    register(
      options: RegistrationOptionsJson,
      tweak: { userVerified?: boolean; origin?: string } = {},
    ) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const id = randomBytes(16);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(id.length);
      const attested = Buffer.concat([Buffer.alloc(16), idLength, id, coseKey(publicKey)]);
      const flags = UP | AT | (tweak.userVerified === false ? 0 : UV);
      const authData = authenticatorData(rpIdOf(options.rp.id), flags, 0, attested);
      const attestationObject = isoCBOR.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', new Uint8Array(authData)],
        ]) as Parameters<typeof isoCBOR.encode>[0],
      );
      const credentialId = isoBase64URL.fromBuffer(new Uint8Array(id));
      const passkey: SoftwarePasskey = {
        credentialId,
        userHandle: options.user.id,
        privateKey,
        counter: 0,
      };
      const response = {
        id: credentialId,
        rawId: credentialId,
        type: 'public-key' as const,
        clientExtensionResults: {},
        response: {
          clientDataJSON: isoBase64URL.fromBuffer(
            new Uint8Array(
              clientData('webauthn.create', options.challenge, tweak.origin ?? origin),
            ),
          ),
          attestationObject: isoBase64URL.fromBuffer(attestationObject),
          transports: ['internal'],
        },
      };
      return { response, passkey };
    },

    /** The answer to `navigator.credentials.get(options)` with `passkey`. */
    assert(
      options: AuthenticationOptionsJson,
      passkey: SoftwarePasskey,
      tweak: { userVerified?: boolean; origin?: string } = {},
    ) {
      passkey.counter += 1;
      const flags = UP | (tweak.userVerified === false ? 0 : UV);
      const authData = authenticatorData(rpIdOf(options.rpId), flags, passkey.counter);
      const data = clientData('webauthn.get', options.challenge, tweak.origin ?? origin);
      const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), passkey.privateKey);
      return {
        id: passkey.credentialId,
        rawId: passkey.credentialId,
        type: 'public-key' as const,
        clientExtensionResults: {},
        response: {
          clientDataJSON: isoBase64URL.fromBuffer(new Uint8Array(data)),
          authenticatorData: isoBase64URL.fromBuffer(new Uint8Array(authData)),
          signature: isoBase64URL.fromBuffer(new Uint8Array(signature)),
          userHandle: passkey.userHandle,
        },
      };
    },
  };
}

export type SoftwareAuthenticator = ReturnType<typeof createSoftwareAuthenticator>;
