import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { ADMIN_ENTRY, SERVER_ENTRY, SERVER_NODE_FLAGS } from '#server/platform/node-flags.ts';
import { freePort } from '#tests/support/free-port.ts';
import { expect, test } from './support/test.ts';

/**
 * Publishing through the operator command shows the release on /download and in
 * /api/releases/latest without a rebuild or restart. The embedded database admits one process
 * only, so this runs a second production server on its own PostgreSQL database (as production
 * does) and publishes from a separate process with `npm run admin`'s entry point.
 */
const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const run = promisify(execFile);

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const sha = (seed: string) => seed.repeat(64).slice(0, 64);
const manifest = {
  version: '3.3.0',
  releaseDate: '2025-07-15',
  notes: ['Published by the end-to-end test.'],
  artifacts: [
    {
      operatingSystem: 'Windows',
      architecture: 'x64',
      format: 'msi',
      sha256: sha('a1'),
      sizeBytes: 47_000_000,
    },
    {
      operatingSystem: 'Windows',
      architecture: 'x86',
      format: 'msi',
      sha256: sha('a2'),
      sizeBytes: 43_000_000,
    },
    {
      operatingSystem: 'macOS',
      architecture: 'universal',
      format: 'pkg',
      sha256: sha('b1'),
      sizeBytes: 94_000_000,
    },
    {
      operatingSystem: 'Linux',
      architecture: 'x64',
      format: 'zip',
      sha256: sha('c1'),
      sizeBytes: 49_000_000,
    },
    {
      operatingSystem: 'Linux',
      architecture: 'arm64',
      format: 'zip',
      sha256: sha('c2'),
      sizeBytes: 47_000_000,
    },
  ],
};

test.describe('publishing a release', () => {
  test.use({
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  });

  let server: ChildProcess | undefined;
  /** A second instance on the same database: its page cache must drop the old catalog too. */
  let other: ChildProcess | undefined;
  let baseUrl = '';
  let otherUrl = '';
  let databaseUrl = '';
  let dbName = '';
  let dir = '';

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    // In CI an unreachable PostgreSQL fails the run instead of skipping it.
    const reachable = process.env.CI ? true : await postgresReachable();
    test.skip(!reachable, `PostgreSQL at ${adminUrl} is not reachable`);
    dbName = `orgsmith_e2e_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
    dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-e2e-publish-'));
    const start = async () => {
      const port = await freePort();
      const url = `http://localhost:${port}`;
      const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: {
          ...process.env,
          PORT: String(port),
          CONSOLE_PORT: String(await freePort()),
          PUBLIC_BASE_URL: url,
          DATABASE_URL: databaseUrl,
          DATA_DIR: dir,
          LOG_LEVEL: 'warn',
        },
      });
      await expect
        .poll(async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.status, {
          timeout: 60_000,
        })
        .toBe(200);
      return { child, url };
    };
    ({ child: server, url: baseUrl } = await start());
    ({ child: other, url: otherUrl } = await start());
  });

  test.afterAll(async () => {
    for (const child of [server, other]) {
      if (!child || child.exitCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    if (dbName) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('shows the new release on /download and /api/releases/latest at once', async ({
    page,
    request,
  }) => {
    // Three admin processes (publish, republish, refusal), each opening PostgreSQL and checking
    // every migration, beside two instances and a browser.
    test.setTimeout(90_000);
    const latest = async () =>
      (await (await request.get(`${baseUrl}/api/releases/latest`)).json()).version;
    expect(await latest()).toBe('3.2.2');
    await page.goto(`${baseUrl}/download`);
    await expect(page.getByTestId('current-version')).toHaveText(
      'Version 3.2.2, released 2025-06-07',
    );
    // Both instances have rendered and stored the pages that show the catalog.
    const text = async (url: string) => (await request.get(url)).text();
    for (const origin of [baseUrl, otherUrl]) {
      expect(await text(`${origin}/download`)).toContain('<strong>3.2.2</strong>');
      expect(await text(`${origin}/`)).toContain('"softwareVersion":"3.2.2"');
      expect(await text(`${origin}/download/feed.atom`)).not.toContain('3.3.0');
    }

    const file = path.join(dir, 'manifest.json');
    await writeFile(file, JSON.stringify(manifest));
    const env = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dir };
    const published = await run(process.execPath, [ADMIN_ENTRY, 'releases', 'publish', file], {
      env,
    });
    expect(published.stdout).toContain('3.3.0 is now the latest release');

    expect(await latest()).toBe('3.3.0');
    // At once on every instance: the publish is announced to all of them (NOTIFY).
    for (const origin of [baseUrl, otherUrl]) {
      await expect
        .poll(() => text(`${origin}/download`), { timeout: 2_000 })
        .toContain('<strong>3.3.0</strong>');
      expect(await text(`${origin}/`)).toContain('"softwareVersion":"3.3.0"');
      expect(await text(`${origin}/download/feed.atom`)).toContain('3.3.0');
    }
    await page.reload();
    await expect(page.getByTestId('current-version')).toHaveText(
      'Version 3.3.0, released 2025-07-15',
    );
    await expect(page.getByTestId('suggested-download').getByRole('link')).toHaveAttribute(
      'data-file-name',
      'orgsmith-3.3.0-win-x64.msi',
    );
    const log = page.locator('#release-notes li[id^="release-"]');
    await expect(log).toHaveCount(3);
    await expect(log.first()).toHaveAttribute('id', 'release-3.3.0');
    await expect(log.first()).toContainText('Published by the end-to-end test.');
    // The home page's release line and structured data read the same catalog.
    await page.goto(`${baseUrl}/`);
    await expect(page.getByText('Latest version 3.3.0, released 2025-07-15')).toBeVisible();
    const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(jsonLd.join('\n')).toContain('"softwareVersion":"3.3.0"');
    // Examples that pin the CLI version follow the catalog too.
    await page.goto(`${baseUrl}/features/ci-cd-platform-integration`);
    await expect(page.getByText('orgsmith/cli:3.3.0').first()).toBeAttached();
    await page.goto(`${baseUrl}/support`);
    await expect(page.getByText(/orgsmith 3\.3\.0/).first()).toBeAttached();
    await page.goto(`${baseUrl}/download`);
    const redirect = await request.get(`${baseUrl}/download/latest/linux/arm64/zip`, {
      maxRedirects: 0,
    });
    expect(redirect.status()).toBe(302);
    expect(redirect.headers().location).toBe(
      'https://downloads.orgsmith.io/cli/orgsmith-3.3.0-linux-arm64.zip',
    );

    // The same manifest again is fine and changes nothing; a changed one is refused.
    const again = await run(process.execPath, [ADMIN_ENTRY, 'releases', 'publish', file], { env });
    expect(again.stdout).toContain('already published exactly like this');
    await writeFile(file, JSON.stringify({ ...manifest, releaseDate: '2025-07-16' }));
    const refused = await run(process.execPath, [ADMIN_ENTRY, 'releases', 'publish', file], {
      env,
    }).catch((error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 1 });
    expect('stderr' in refused ? refused.stderr : '').toContain(
      'Refused: 3.3.0 is already published',
    );
    await page.reload();
    await expect(page.getByTestId('current-version')).toHaveText(
      'Version 3.3.0, released 2025-07-15',
    );
  });
});
