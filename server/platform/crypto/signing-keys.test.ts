import { createHash, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { databaseTargets } from '#tests/support/databases.ts';
import { openOlderDatabase } from '#tests/support/older-schema.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { appState, signingKeys } from '../db/schema.ts';
import {
  ed25519PublicX,
  findSigningKeyPem,
  generateEd25519PrivateKeyPem,
  loadSigningKey,
  parseEd25519PrivateKey,
  publicKeyFingerprint,
  recordSigningKeyUse,
  signingKeyFrom,
  signingKeysUsedSince,
  signingKeyVariable,
} from './signing-keys.ts';

const MIGRATION = '0800_one_signing_key_table.sql';
const t0 = new Date('2026-01-15T10:00:00.000Z');
const plus = (ms: number) => new Date(t0.getTime() + ms);

describe('signing keys by purpose', () => {
  it('names a certificate key by its RFC 7638 thumbprint and a release key by its fingerprint', () => {
    const privateKey = parseEd25519PrivateKey(generateEd25519PrivateKeyPem());
    const publicKey = createPublicKey(privateKey);
    const x = ed25519PublicX(publicKey);
    const thumbprint = createHash('sha256')
      .update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`)
      .digest('base64url');
    const certificate = signingKeyFrom('licence-certificate', privateKey);
    const release = signingKeyFrom('release', privateKey);
    expect(certificate.keyId).toBe(thumbprint);
    expect(release.keyId).toBe(publicKeyFingerprint(publicKey).slice(0, 16));
    expect(release.publicKeyPem).toBe(certificate.publicKeyPem);
    expect(certificate.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n.{60}\n-----END/);
  });

  it('names the variable of each purpose in its errors', () => {
    expect(signingKeyVariable('licence-certificate')).toBe('LICENSE_SIGNING_KEY');
    expect(signingKeyVariable('release')).toBe('RELEASE_SIGNING_KEY');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    expect(() => parseEd25519PrivateKey(rsa, 'RELEASE_SIGNING_KEY')).toThrow(
      'RELEASE_SIGNING_KEY must be an Ed25519 key, not rsa',
    );
  });
});

describe.each(databaseTargets)('signing keys on $name', (target) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await target.open();
  });
  afterAll(() => handle.close());
  beforeEach(async () => {
    await handle.db.delete(signingKeys);
    await handle.db.delete(appState);
  });

  it('generates one key per purpose, keeps it for every instance and records it before use', async () => {
    const certificate = await loadSigningKey(handle.db, 'licence-certificate', undefined, t0);
    const release = await loadSigningKey(handle.db, 'release', undefined, plus(1000));
    expect(release.keyId).not.toBe(certificate.keyId);
    expect(release.publicKeyPem).not.toBe(certificate.publicKeyPem);
    const again = await loadSigningKey(handle.db, 'licence-certificate', undefined, plus(2000));
    expect(again.keyId).toBe(certificate.keyId);
    expect(again.publicKeyPem).toBe(certificate.publicKeyPem);
    expect((await loadSigningKey(handle.db, 'release', undefined, plus(3000))).keyId).toBe(
      release.keyId,
    );
    const stored = await handle.db.select().from(appState);
    expect(stored.map((row) => row.key).sort()).toEqual([
      'licence_signing_key',
      'release_signing_key',
    ]);
    expect(await handle.db.select().from(signingKeys).orderBy(signingKeys.firstUsedAt)).toEqual([
      {
        keyId: certificate.keyId,
        purpose: 'licence-certificate',
        publicKeyPem: certificate.publicKeyPem,
        firstUsedAt: t0,
        lastUsedAt: plus(2000),
      },
      {
        keyId: release.keyId,
        purpose: 'release',
        publicKeyPem: release.publicKeyPem,
        firstUsedAt: plus(1000),
        lastUsedAt: plus(3000),
      },
    ]);
  });

  it('uses the configured key instead of the generated one, in PEM or on one line', async () => {
    const pem = generateEd25519PrivateKeyPem();
    const generated = await loadSigningKey(handle.db, 'release', undefined, t0);
    const configured = await loadSigningKey(handle.db, 'release', pem, t0);
    expect(configured.keyId).not.toBe(generated.keyId);
    const oneLine = pem.trim().replaceAll('\n', '\\n');
    expect((await loadSigningKey(handle.db, 'release', oneLine, t0)).keyId).toBe(configured.keyId);
    await expect(loadSigningKey(handle.db, 'release', 'nope', t0)).rejects.toThrow(
      'RELEASE_SIGNING_KEY is not a readable PEM private key',
    );
  });

  it('keeps the purposes apart: a key of one purpose is never read as one of the other', async () => {
    const certificate = await loadSigningKey(handle.db, 'licence-certificate', undefined, t0);
    const release = await loadSigningKey(handle.db, 'release', undefined, t0);
    expect(await findSigningKeyPem(handle.db, 'release', release.keyId)).toBe(release.publicKeyPem);
    expect(await findSigningKeyPem(handle.db, 'release', certificate.keyId)).toBeUndefined();
    expect(
      await findSigningKeyPem(handle.db, 'licence-certificate', release.keyId),
    ).toBeUndefined();
    expect(await signingKeysUsedSince(handle.db, 'licence-certificate', plus(-1))).toEqual([
      { keyId: certificate.keyId, publicKeyPem: certificate.publicKeyPem },
    ]);
    expect(await signingKeysUsedSince(handle.db, 'release', plus(-1))).toEqual([
      { keyId: release.keyId, publicKeyPem: release.publicKeyPem },
    ]);
    // A use recorded under the other purpose changes nothing of the key's row.
    await recordSigningKeyUse(
      handle.db,
      { ...release, purpose: 'licence-certificate' },
      plus(9000),
    );
    const [row] = await handle.db
      .select()
      .from(signingKeys)
      .where(sql`key_id = ${release.keyId}`);
    expect(row).toMatchObject({ purpose: 'release', lastUsedAt: t0 });
    expect(await signingKeysUsedSince(handle.db, 'licence-certificate', plus(-1))).toHaveLength(1);
  });

  it('lists the keys used since a moment, most recently used first, the last use never moving back', async () => {
    const [a, b, c] = [1, 2, 3].map(() =>
      signingKeyFrom('licence-certificate', parseEd25519PrivateKey(generateEd25519PrivateKeyPem())),
    );
    if (!a || !b || !c) throw new Error('three keys');
    await recordSigningKeyUse(handle.db, a, plus(1000));
    await recordSigningKeyUse(handle.db, b, plus(3000));
    await recordSigningKeyUse(handle.db, c, t0);
    await recordSigningKeyUse(handle.db, a, plus(5000));
    await recordSigningKeyUse(handle.db, a, plus(2000));
    expect(
      (await signingKeysUsedSince(handle.db, 'licence-certificate', t0)).map((k) => k.keyId),
    ).toEqual([a.keyId, b.keyId]);
  });
});

const stateRows = z.object({ rows: z.array(z.record(z.string(), z.unknown())) });

describe.each(databaseTargets)(`migration ${MIGRATION} on $name`, (target) => {
  it('moves both key tables into one, keeping ids, times and keys, so signatures still verify', async () => {
    const handle = await openOlderDatabase(target, MIGRATION);
    try {
      const db = handle.db;
      const exec = async (query: ReturnType<typeof sql>) =>
        stateRows.parse(await db.execute(query)).rows;
      // The generated keys as an older release kept them, and one retired key of each purpose.
      const licencePem = generateEd25519PrivateKeyPem();
      const releasePem = generateEd25519PrivateKeyPem();
      const licence = signingKeyFrom('licence-certificate', parseEd25519PrivateKey(licencePem));
      const retiredLicence = signingKeyFrom(
        'licence-certificate',
        parseEd25519PrivateKey(generateEd25519PrivateKeyPem()),
      );
      const release = signingKeyFrom('release', parseEd25519PrivateKey(releasePem));
      const retiredRelease = signingKeyFrom(
        'release',
        parseEd25519PrivateKey(generateEd25519PrivateKeyPem()),
      );
      const xOf = (pem: string) => ed25519PublicX(createPublicKey(pem));
      await exec(sql`insert into app_state (key, value) values
        ('licence_signing_key', ${licencePem}), ('release_signing_key', ${releasePem})`);
      await exec(sql`insert into licence_signing_keys (key_id, public_x, first_used_at, last_used_at) values
        (${licence.keyId}, ${xOf(licence.publicKeyPem)}, ${plus(1000).toISOString()}, ${plus(9000).toISOString()}),
        (${retiredLicence.keyId}, ${xOf(retiredLicence.publicKeyPem)}, ${t0.toISOString()}, ${plus(500).toISOString()})`);
      await exec(sql`insert into release_signing_keys (key_id, public_key_pem, first_used_at) values
        (${retiredRelease.keyId}, ${retiredRelease.publicKeyPem}, ${t0.toISOString()}),
        (${release.keyId}, ${release.publicKeyPem}, ${plus(2000).toISOString()})`);
      const sums = 'ab'.repeat(32) + '  orgsmith-3.3.0-win-x64.msi\n';
      const signature = sign(null, Buffer.from(sums), retiredRelease.privateKey).toString('base64');
      await exec(sql`insert into releases (version, release_date, sha256sums_signature, signing_key_id, signed_at)
        values ('3.3.0', '2026-01-10', ${signature}, ${retiredRelease.keyId}, ${t0.toISOString()})`);

      expect(await migrate(db)).toContain(MIGRATION);

      expect(
        await db.select().from(signingKeys).orderBy(signingKeys.firstUsedAt, signingKeys.purpose),
      ).toEqual([
        {
          keyId: retiredLicence.keyId,
          purpose: 'licence-certificate',
          publicKeyPem: retiredLicence.publicKeyPem,
          firstUsedAt: t0,
          lastUsedAt: plus(500),
        },
        {
          keyId: retiredRelease.keyId,
          purpose: 'release',
          publicKeyPem: retiredRelease.publicKeyPem,
          firstUsedAt: t0,
          lastUsedAt: t0,
        },
        {
          keyId: licence.keyId,
          purpose: 'licence-certificate',
          publicKeyPem: licence.publicKeyPem,
          firstUsedAt: plus(1000),
          lastUsedAt: plus(9000),
        },
        {
          keyId: release.keyId,
          purpose: 'release',
          publicKeyPem: release.publicKeyPem,
          firstUsedAt: plus(2000),
          lastUsedAt: plus(2000),
        },
      ]);
      expect(
        await exec(
          sql`select tablename from pg_tables where tablename in ('licence_signing_keys', 'release_signing_keys')`,
        ),
      ).toEqual([]);

      // The stored private keys load as the same keys; the key set's `x` values are unchanged.
      const loaded = await loadSigningKey(db, 'licence-certificate', undefined, plus(10_000));
      expect(loaded.keyId).toBe(licence.keyId);
      expect((await loadSigningKey(db, 'release', undefined, plus(10_000))).keyId).toBe(
        release.keyId,
      );
      expect(
        (await signingKeysUsedSince(db, 'licence-certificate', t0)).map((key) => [
          key.keyId,
          xOf(key.publicKeyPem),
        ]),
      ).toEqual([
        [licence.keyId, xOf(licence.publicKeyPem)],
        [retiredLicence.keyId, xOf(retiredLicence.publicKeyPem)],
      ]);
      // The older release still verifies with the key that signed it, which it still references.
      const pem = await findSigningKeyPem(db, 'release', retiredRelease.keyId);
      expect(pem).toBe(retiredRelease.publicKeyPem);
      expect(
        verify(
          null,
          Buffer.from(sums),
          createPublicKey(pem ?? ''),
          Buffer.from(signature, 'base64'),
        ),
      ).toBe(true);
      await expect(
        exec(sql`update releases set signing_key_id = 'ffffffffffffffff' where version = '3.3.0'`),
      ).rejects.toThrow();
      await exec(
        sql`update releases set signing_key_id = ${release.keyId} where version = '3.3.0'`,
      );
    } finally {
      await handle.close();
    }
  });
});
