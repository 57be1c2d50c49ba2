import { createPublicKey } from 'node:crypto';
import type { Database } from '#server/platform/db/database.ts';
import {
  recordSigningKeyUse as recordUse,
  signingKeysUsedSince,
} from '#server/platform/crypto/signing-keys.ts';
import type { Job } from '#server/platform/jobs/job.ts';
import { CERTIFICATE_LIFETIME_DAYS, type LicenceKeySet } from './licence-certificate-contract.ts';
import type { LicenceSigningKey } from './licence-signing-key.ts';
import { licencePublicJwk } from './signing-key.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often a running instance records that it still signs with its key. */
export const KEY_USE_RECORD_INTERVAL_MS = 60 * 60 * 1000;
/**
 * A key stays in the set this long after it last signed (decision 087): the longest certificate
 * life (30 days) plus a day for the hourly record of use and for clocks that differ.
 */
export const RETIRED_KEY_PUBLISHED_MS = (CERTIFICATE_LIFETIME_DAYS + 1) * DAY_MS;
/** Instances re-read the published keys this often, so a new key shows up on every instance. */
const KEY_SET_REFRESH_MS = 60_000;

/** Records that this instance signs with `key` now (first use, or a later one). */
export async function recordSigningKeyUse(
  db: Database,
  key: LicenceSigningKey,
  now: Date,
): Promise<void> {
  await recordUse(db, key, now);
}

/**
 * The key set to publish at `now`: every key that signed within the publication window, most
 * recently used first, and always the key this instance signs with.
 */
export async function publishedKeySet(
  db: Database,
  activeKey: LicenceSigningKey,
  now: Date,
): Promise<LicenceKeySet> {
  const rows = await signingKeysUsedSince(
    db,
    'licence-certificate',
    new Date(now.getTime() - RETIRED_KEY_PUBLISHED_MS),
  );
  const others = rows
    .filter((row) => row.keyId !== activeKey.keyId)
    .map((row) => licencePublicJwk(row.keyId, createPublicKey(row.publicKeyPem)));
  return { keys: [activeKey.publicJwk, ...others] };
}

/** `publishedKeySet`, read at most once a minute per instance. */
export function createKeySetReader(options: {
  db: Database;
  activeKey: LicenceSigningKey;
  clock: () => Date;
}): () => Promise<LicenceKeySet> {
  let cached: { keySet: LicenceKeySet; readAt: number } | undefined;
  return async () => {
    const now = options.clock();
    if (cached && Math.abs(now.getTime() - cached.readAt) < KEY_SET_REFRESH_MS) {
      return cached.keySet;
    }
    const keySet = await publishedKeySet(options.db, options.activeKey, now);
    cached = { keySet, readAt: now.getTime() };
    return keySet;
  };
}

/**
 * The running key's record of use (decision 174): every instance writes its key's `last_used_at`
 * every `everyMs`, so the key set keeps publishing a key an instance still signs with.
 */
export function signingKeyUseJob(
  db: Database,
  key: LicenceSigningKey,
  clock: () => Date,
  everyMs = KEY_USE_RECORD_INTERVAL_MS,
): Job {
  return {
    name: 'signing-key-use',
    scope: 'instance',
    everyMs,
    firstAfterMs: everyMs,
    run: () => recordSigningKeyUse(db, key, clock()),
  };
}
