import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databaseTargets } from '#tests/support/databases.ts';
import type { DatabaseHandle } from '#server/platform/db/client.ts';
import { signingKeys } from '#server/platform/db/schema.ts';
import { startJobs } from '#server/platform/jobs/start-jobs.ts';
import { createLogger } from '#server/platform/logger.ts';
import {
  publishedKeySet,
  recordSigningKeyUse,
  RETIRED_KEY_PUBLISHED_MS,
  signingKeyUseJob,
} from './key-set.ts';
import type { LicenceSigningKey } from './licence-signing-key.ts';
import {
  generateEd25519PrivateKeyPem,
  parseEd25519PrivateKey,
} from '#server/platform/crypto/signing-keys.ts';
import { signingKeyFrom } from './signing-key.ts';

const newKey = (): LicenceSigningKey =>
  signingKeyFrom(parseEd25519PrivateKey(generateEd25519PrivateKeyPem()));
const t0 = new Date('2026-01-15T10:00:00Z');
const plus = (ms: number) => new Date(t0.getTime() + ms);

describe.each(databaseTargets)('published licence key set on $name', (target) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await target.open();
  });
  afterAll(() => handle.close());
  beforeEach(async () => {
    await handle.db.delete(signingKeys);
  });

  const lastUse = async (key: LicenceSigningKey) =>
    (await handle.db.select().from(signingKeys).where(eq(signingKeys.keyId, key.keyId)))[0];

  it('records the first and the latest use of a key, never moving the latest back', async () => {
    const key = newKey();
    await recordSigningKeyUse(handle.db, key, plus(1000));
    await recordSigningKeyUse(handle.db, key, plus(5000));
    await recordSigningKeyUse(handle.db, key, plus(2000));
    expect(await lastUse(key)).toEqual({
      keyId: key.keyId,
      purpose: 'licence-certificate',
      publicKeyPem: key.publicKeyPem,
      firstUsedAt: plus(1000),
      lastUsedAt: plus(5000),
    });
  });

  it('publishes the active key first, then keys that signed within the window, newest first', async () => {
    const [active, recent, older, gone] = [newKey(), newKey(), newKey(), newKey()];
    await recordSigningKeyUse(handle.db, gone, t0);
    await recordSigningKeyUse(handle.db, older, plus(1000));
    await recordSigningKeyUse(handle.db, recent, plus(2000));
    const now = plus(RETIRED_KEY_PUBLISHED_MS + 500);
    // The active key is published even before its use was recorded.
    const set = await publishedKeySet(handle.db, active, now);
    expect(set.keys).toEqual([active.publicJwk, recent.publicJwk, older.publicJwk]);
    expect(RETIRED_KEY_PUBLISHED_MS).toBe(31 * 24 * 60 * 60 * 1000);
  });

  it('records the running key on its interval until stopped', async () => {
    const key = newKey();
    let now = t0;
    await recordSigningKeyUse(handle.db, key, now);
    const runner = startJobs([signingKeyUseJob(handle.db, key, () => now, 20)], {
      db: handle.db,
      logger: createLogger('silent'),
    });
    now = plus(3_600_000);
    const deadline = Date.now() + 5000;
    while ((await lastUse(key))?.lastUsedAt.getTime() !== now.getTime() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await lastUse(key))?.lastUsedAt).toEqual(now);
    await runner.stop();
  });
});
