import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/platform/db/client.ts';
import { publishRelease } from '#server/licensing/releases/publish-release.ts';
import { loadReleaseSigningKey } from '#server/licensing/releases/release-signing-key.ts';
import {
  RELEASE_CATALOG_CHANNEL,
  type NewRelease,
} from '#server/licensing/releases/release-repository.ts';
import { databaseTargets } from '../support/databases.ts';

const release = (version: string): NewRelease => ({
  version,
  releaseDate: '2025-07-15',
  prerelease: false,
  notes: ['Test release.'],
  artifacts: [
    {
      operatingSystem: 'Linux',
      architecture: 'x64',
      format: 'zip',
      description: 'Linux x64 zip',
      fileName: `orgsmith-cli-${version}-linux-x64.zip`,
      sha256: 'a'.repeat(64),
      sizeBytes: 1_000,
    },
  ],
});

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Page caches on every instance listen for a publish (decision 100). */
describe.each(databaseTargets)('release catalog changes on $name', (target) => {
  let database: DatabaseHandle;
  const heard: Array<string | undefined> = [];
  beforeEach(async () => {
    heard.length = 0;
    database = await target.open();
    await database.listen(RELEASE_CATALOG_CHANNEL, (payload) => heard.push(payload));
  });
  afterEach(() => database.close());
  const publish = async (next: NewRelease) =>
    publishRelease(database.db, next, {
      signingKey: await loadReleaseSigningKey(database.db, undefined),
      now: new Date(),
    });

  it('announces a publish once it is committed, and not a republish that changes nothing', async () => {
    await publish(release('3.3.0'));
    await until(() => heard.length > 0);
    expect(heard).toEqual(['3.3.0']);
    await publish(release('3.3.0'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toEqual(['3.3.0']);
  });

  it('announces nothing when the publishing transaction rolls back', async () => {
    await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select pg_notify(${RELEASE_CATALOG_CHANNEL}, 'rolled-back')`);
        throw new Error('rollback');
      })
      .catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toEqual([]);
  });

  it.runIf(target.name === 'postgres')(
    'tells listeners they may have missed a change when the listening connection drops',
    async () => {
      await database.db.execute(sql`
        select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query ilike 'LISTEN%' and pid <> pg_backend_pid()`);
      await until(() => heard.includes(undefined));
      // Listening again: the next publish is heard.
      await publish(release('3.4.0'));
      await until(() => heard.includes('3.4.0'));
    },
  );
});
