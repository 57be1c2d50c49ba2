import type { Ed25519SigningKey } from '#server/platform/crypto/signing-keys.ts';

/** The public half as a JSON Web Key (RFC 8037 OKP key), as published in the key set. */
export interface LicencePublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

/** The key that signs licence certificates (purpose `licence-certificate`, decision 171). */
export interface LicenceSigningKey extends Ed25519SigningKey {
  /** RFC 7638 thumbprint of the public key: stable for a key, different for every other key. */
  keyId: string;
  publicJwk: LicencePublicJwk;
}
