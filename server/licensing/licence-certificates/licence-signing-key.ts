import type { KeyObject } from 'node:crypto';

/** The public half as a JSON Web Key (RFC 8037 OKP key), as published in the key set. */
export interface LicencePublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

export interface LicenceSigningKey {
  /** RFC 7638 thumbprint of the public key: stable for a key, different for every other key. */
  keyId: string;
  privateKey: KeyObject;
  publicJwk: LicencePublicJwk;
}
