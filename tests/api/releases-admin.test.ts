import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Release } from '#shared/downloads/catalog.ts';
import { runAdmin } from '#server/admin/run-admin.ts';
import { databaseTargets, seedEmbeddedDatabase } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const example = JSON.parse(
  await readFile(path.join(repoRoot, 'docs/release-manifest.example.json'), 'utf8'),
) as { version: string; releaseDate: string; artifacts: Array<Record<string, unknown>> };

interface Captured {
  code: number;
  out: string;
  err: string;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-admin-test-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function writeManifest(name: string, manifest: unknown): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  return file;
}

describe('admin command line: usage', () => {
  const admin = async (...argv: string[]): Promise<Captured> => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(argv, {
      io: { out: (l) => out.push(l), err: (l) => err.push(l) },
      environment: { LOG_LEVEL: 'silent' },
      openDatabase: () => Promise.reject(new Error('usage errors must not open the database')),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('prints help with --help and exits 0', async () => {
    const help = await admin('--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: npm run admin -- <command> [arguments] [options]');
    expect(help.out).toMatch(/releases publish <manifest\.json> \[options\]\s+Publish a release/);
    expect(help.out).toMatch(/releases list \[options\]\s+List published releases/);
    const group = await admin('releases', '--help');
    expect(group.code).toBe(0);
    expect(group.out).toContain('Commands in "releases":');
    const one = await admin('releases', 'publish', '--help');
    expect(one.code).toBe(0);
    expect(one.out).toContain('Usage: npm run admin -- releases publish <manifest.json> [options]');
    expect(one.out).toContain('A published version never');
    expect(one.out).toMatch(/--dry-run\s+Validate and report/);
  });

  it.each([
    [[], /Usage: npm run admin --/],
    [['widgets'], /Unknown command "widgets"\. Run `npm run admin -- --help` for the list\./],
    [['releases'], /Commands in "releases":/],
    [['releases', 'delete'], /Unknown command "releases delete"\./],
    [['releases', 'publish'], /Missing <manifest\.json>\./],
    [['releases', 'publish', 'a.json', 'b.json'], /Unexpected argument "b\.json"\./],
    [['releases', 'publish', 'a.json', '--force'], /Unknown option '--force'/],
    [['releases', 'list', '--json=yes'], /--json/],
  ])('exits 2 with a clear message for %j', async (argv, message) => {
    const result = await admin(...argv);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });

  it('exits 1 on a bad environment', async () => {
    const err: string[] = [];
    const code = await runAdmin(['releases', 'list'], {
      io: { out: () => undefined, err: (l) => err.push(l) },
      environment: { DATABASE_URL: 'mysql://localhost/x' },
    });
    expect(code).toBe(1);
    expect(err.join('\n')).toContain('DATABASE_URL: must be a postgres:// URL');
  });

  it('refuses to open the embedded database while a server runs on it', async () => {
    const server: Server = createServer((_req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ status: 'ok', database: 'pglite' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const err: string[] = [];
      const code = await runAdmin(['releases', 'list'], {
        io: { out: () => undefined, err: (l) => err.push(l) },
        environment: { PORT: String(port), DATA_DIR: path.join(dir, 'guarded') },
      });
      expect(code).toBe(1);
      expect(err.join('\n')).toContain(
        `A server on port ${port} is running on the embedded database`,
      );
    } finally {
      server.close();
    }
  });
});

describe.each(databaseTargets)('admin releases commands on $name', (target) => {
  let t: TestApp;
  const admin = async (...argv: string[]): Promise<Captured> => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(argv, {
      io: { out: (l) => out.push(l), err: (l) => err.push(l) },
      environment: { LOG_LEVEL: 'silent', DOWNLOAD_BASE_URL: 'https://files.example.test/cli' },
      cwd: dir,
      // The command and the running app share one database, as two instances would.
      openDatabase: async () => ({ ...t.deps.database, close: async () => undefined }),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const latestVersion = async () => {
    const res = await t.app.request('/api/releases/latest');
    return ((await res.json()) as Release).version;
  };

  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  it('lists the seeded releases', async () => {
    const table = await admin('releases', 'list');
    expect(table.code).toBe(0);
    expect(table.out.split('\n')).toEqual([
      'VERSION  DATE        CHANNEL  ARTIFACTS',
      '3.2.2    2025-06-07  stable   12         latest',
      '3.2.1    2025-05-30  stable   12',
    ]);
  });

  it('publishes from a manifest once, accepts the same manifest again, refuses changes', async () => {
    const manifestPath = await writeManifest(`example-${target.name}.json`, example);
    const dry = await admin('releases', 'publish', path.basename(manifestPath), '--dry-run');
    expect(dry).toMatchObject({
      code: 0,
      out: 'Dry run: would publish 3.3.0 (2025-07-15, 12 artifacts).',
    });
    expect(await latestVersion()).toBe('3.2.2');

    const first = await admin('releases', 'publish', path.basename(manifestPath));
    expect(first.code).toBe(0);
    expect(first.out).toBe(
      [
        'Published 3.3.0 (2025-07-15, 12 artifacts).',
        `Signed its SHA256SUMS with release-signing key ${t.deps.releaseSigningKey.keyId} (fingerprint ${t.deps.releaseSigningKey.fingerprint}).`,
        '3.3.0 is now the latest release on /download and /api/releases/latest.',
      ].join('\n'),
    );
    expect(await latestVersion()).toBe('3.3.0');

    const again = await admin('releases', 'publish', manifestPath);
    expect(again).toEqual({
      code: 0,
      out: '3.3.0 is already published exactly like this; nothing changed.',
      err: '',
    });

    const changedArtifacts = example.artifacts.slice(1);
    const changed = await writeManifest(`changed-${target.name}.json`, {
      ...example,
      releaseDate: '2025-07-16',
      artifacts: changedArtifacts,
    });
    for (const extra of [[], ['--dry-run']]) {
      const refused = await admin('releases', 'publish', changed, ...extra);
      expect(refused.code).toBe(1);
      expect(refused.err.split('\n')).toEqual([
        'Refused: 3.3.0 is already published, and a published version never changes.',
        'The manifest differs from it in:',
        '  - releaseDate: published 2025-07-15, manifest 2025-07-16',
        '  - artifact Windows | x64 | msi: missing from the manifest',
        'Publish the changes under a new version instead.',
      ]);
    }
    const res = await t.app.request('/api/releases/latest');
    const latest = (await res.json()) as Release;
    expect(latest.releaseDate).toBe('2025-07-15');
    expect(latest.artifacts).toHaveLength(12);
    expect(latest.artifacts[0]?.downloadUri).toBe(
      'https://downloads.orgsmith.io/cli/orgsmith-3.3.0-win-x64.msi',
    );
  });

  it('reports a pre-release without making it the latest', async () => {
    const file = await writeManifest(`beta-${target.name}.json`, {
      ...example,
      version: '3.4.0-beta.1',
      prerelease: undefined,
    });
    const result = await admin('releases', 'publish', file);
    expect(result.code).toBe(0);
    expect(result.out).toContain('The latest stable release stays 3.3.0 (this is a pre-release).');
    const json = await admin('releases', 'list', '--json');
    const listed = JSON.parse(json.out) as { releases: Release[] };
    expect(listed.releases.map((r) => [r.version, r.prerelease])).toEqual([
      ['3.4.0-beta.1', true],
      ['3.3.0', false],
      ['3.2.2', false],
      ['3.2.1', false],
    ]);
  });

  it('explains an invalid or unreadable manifest and writes nothing', async () => {
    const bad = await writeManifest(`bad-${target.name}.json`, {
      ...example,
      version: '3.5',
      artifacts: [{ ...example.artifacts[0], sha256: 'xyz' }],
    });
    const invalid = await admin('releases', 'publish', bad);
    expect(invalid.code).toBe(1);
    expect(invalid.err.split('\n')).toEqual([
      `The manifest ${bad} is not valid:`,
      '  - version: must be a semantic version such as 3.3.0 or 3.4.0-beta.1 (no build metadata)',
      '  - artifacts[0].sha256: must be 64 hexadecimal characters (a SHA-256 digest)',
    ]);
    const notJson = await admin(
      'releases',
      'publish',
      await writeManifest('x.json', '{"version":'),
    );
    expect(notJson.code).toBe(1);
    expect(notJson.err).toMatch(/not valid JSON/);
    const missing = await admin('releases', 'publish', 'no-such-file.json');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain(`Cannot read ${path.join(dir, 'no-such-file.json')}`);
    expect(await latestVersion()).toBe('3.3.0');
  });
});

describe('admin command line as a process, on an embedded database', () => {
  it('publishes in one process and lists in the next; fails with exit code 1 on refusal', async () => {
    const env = {
      ...process.env,
      DATA_DIR: path.join(dir, 'spawned'),
      PORT: '1',
      DATABASE_URL: '',
    };
    // A migrated embedded database, copied from the template: the processes open it, as they
    // would a server's, instead of the first one running initdb and every migration.
    await mkdir(env.DATA_DIR);
    await seedEmbeddedDatabase(env.DATA_DIR);
    const cli = path.join(repoRoot, 'server/admin/cli.ts');
    const manifest = await writeManifest('spawned.json', example);
    const published = await run(process.execPath, [cli, 'releases', 'publish', manifest], { env });
    expect(published.stdout).toContain('Published 3.3.0 (2025-07-15, 12 artifacts).');
    const listed = await run(process.execPath, [cli, 'releases', 'list'], { env });
    expect(listed.stdout).toMatch(/^3\.3\.0\s+2025-07-15\s+stable\s+12\s+latest$/m);
    const changed = await writeManifest('spawned-changed.json', { ...example, notes: ['Other.'] });
    const refused = await run(process.execPath, [cli, 'releases', 'publish', changed], {
      env,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Refused: 3.3.0 is already published');
    // Three processes, each opening the embedded database from disk: about 20 s each while the
    // rest of the suite keeps both cores busy (CI), far less alone.
  }, 240_000);
});
