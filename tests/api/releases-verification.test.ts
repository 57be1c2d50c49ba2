import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Release } from '#shared/downloads/catalog.ts';
import { artifactFileName } from '#shared/downloads/file-names.ts';
import {
  SHA256SUMS_FILE,
  SIGNATURE_FILE,
  SIGNING_KEY_FILE,
  verifyCommands,
  type VerifyCommand,
} from '#shared/downloads/verification.ts';
import { runAdmin } from '#server/admin/run-admin.ts';
import { buildApp } from '#server/app.ts';
import { parseEnv } from '#server/env.ts';
import { generateEd25519PrivateKeyPem } from '#server/platform/crypto/signing-keys.ts';
import { createLogger } from '#server/platform/logger.ts';
import { verifyText } from '#server/licensing/releases/release-signing-key.ts';
import { assembleDeps } from '#server/runtime.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, csrfHeaders, type TestApp } from '../support/test-app.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const exampleSbomPath = path.join(repoRoot, 'docs/sbom.example.cdx.json');
const VERSION = '3.3.0';

/** Fake artifact files with random bytes: the test computes their checksums itself. */
const artifacts = [
  { operatingSystem: 'Windows', architecture: 'x64', format: 'msi' },
  { operatingSystem: 'macOS', architecture: 'universal', format: 'pkg' },
  { operatingSystem: 'Linux', architecture: 'x64', format: 'zip' },
] as const;

interface FakeFile {
  fileName: string;
  bytes: Buffer;
  sha256: string;
}

function fakeFiles(version: string): FakeFile[] {
  return artifacts.map((selection) => {
    const bytes = randomBytes(4096 + Math.floor(Math.random() * 4096));
    return {
      fileName: artifactFileName(version, selection),
      bytes,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
  });
}

function manifestOf(version: string, files: FakeFile[]) {
  return {
    version,
    releaseDate: '2025-07-15',
    notes: ['Verifiable downloads.'],
    artifacts: artifacts.map((selection, index) => ({
      ...selection,
      sha256: files[index]?.sha256,
      sizeBytes: files[index]?.bytes.length,
    })),
  };
}

/** Runs a command exactly as the page shows it, in `cwd`, through a POSIX shell. */
async function runShown(command: VerifyCommand, cwd: string) {
  return run('sh', ['-c', command.command], { cwd }).then(
    ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      out: error.stdout + error.stderr,
    }),
  );
}

const errorBody = z.object({ Error: z.string(), message: z.string() });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-verify-test-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.each(databaseTargets)('verifiable downloads on $name', (target) => {
  let t: TestApp;
  const files = fakeFiles(VERSION);
  const admin = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(argv, {
      io: { out: (l) => out.push(l), err: (l) => err.push(l) },
      environment: { LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://localhost:3000' },
      cwd: dir,
      openDatabase: async () => ({ ...t.deps.database, close: async () => undefined }),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const get = (url: string, init?: RequestInit) => t.app.request(new URL(url).pathname, init);

  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  it('signs releases published before signing on first read, once, whichever instance reads first', async () => {
    const signatureOf = async (version: string): Promise<unknown> => {
      const result = z
        .object({ rows: z.array(z.unknown()) })
        .parse(
          await t.deps.database.db.execute(
            sql`select sha256sums_signature as s from releases where version = ${version}`,
          ),
        );
      return result.rows[0];
    };
    // 3.2.1 comes from the seed migration, from before releases were signed; nothing read it yet.
    expect(await signatureOf('3.2.1')).toEqual({ s: null });
    const env = parseEnv({
      NODE_ENV: 'test',
      PUBLIC_BASE_URL: 'http://localhost:3000',
      LOG_LEVEL: 'silent',
      RELEASE_SIGNING_KEY: generateEd25519PrivateKeyPem(),
    });
    const other = buildApp(
      await assembleDeps({
        env,
        database: t.deps.database,
        logger: createLogger('silent'),
        clock: () => new Date(),
        secretKey: 'test-secret-key-test-secret-key-0123456789',
        wakeOutbox: () => undefined,
      }),
    );
    const answers = await Promise.all(
      [t.app, other].map((app) => app.request('/downloads/3.2.1/SHA256SUMS.sig')),
    );
    const [first, second] = await Promise.all(answers.map(async (res) => res.arrayBuffer()));
    expect(Buffer.from(first ?? new ArrayBuffer(0))).toEqual(
      Buffer.from(second ?? new ArrayBuffer(0)),
    );
    const keyIds = answers.map((res) => res.headers.get('x-key-id'));
    expect(keyIds[0]).toBe(keyIds[1]);
    const stored = z.object({ s: z.string() }).parse(await signatureOf('3.2.1'));
    const sums = await (await t.app.request('/downloads/3.2.1/SHA256SUMS')).text();
    const keyPem = await (
      await t.app.request(`/downloads/release-signing-keys/${keyIds[0] ?? ''}.pem`)
    ).text();
    expect(verifyText(sums, stored.s, keyPem)).toBe(true);
  });

  it('publishes with an SBOM; the files, signature and key pass sha256sum, shasum and openssl as the page shows them', async () => {
    const manifest = path.join(dir, `manifest-${target.name}.json`);
    await writeFile(manifest, JSON.stringify(manifestOf(VERSION, files)));
    const published = await admin('releases', 'publish', manifest, '--sbom', exampleSbomPath);
    expect(published.err).toBe('');
    expect(published.out).toContain('SBOM: CycloneDX 1.6, 2 components, valid.');
    expect(published.out).toContain(
      `Signed its SHA256SUMS with release-signing key ${t.deps.releaseSigningKey.keyId}`,
    );

    const release = (await (await t.app.request('/api/releases/latest')).json()) as Release;
    expect(release).toMatchObject({
      version: VERSION,
      sha256SumsUrl: `http://localhost:3000/downloads/${VERSION}/SHA256SUMS`,
      signatureUrl: `http://localhost:3000/downloads/${VERSION}/SHA256SUMS.sig`,
      sbomUrl: `http://localhost:3000/downloads/${VERSION}/sbom.cdx.json`,
      signingKeyUrl: `http://localhost:3000/downloads/release-signing-keys/${t.deps.releaseSigningKey.keyId}.pem`,
    });

    const sums = await get(release.sha256SumsUrl);
    expect(sums.status).toBe(200);
    expect(sums.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(sums.headers.get('cache-control')).toBe('public, max-age=86400');
    const sumsText = await sums.text();
    expect(sumsText).toBe(
      [...files]
        .sort((a, b) => (a.fileName < b.fileName ? -1 : 1))
        .map((file) => `${file.sha256}  ${file.fileName}\n`)
        .join(''),
    );
    const signature = Buffer.from(await (await get(release.signatureUrl)).arrayBuffer());
    expect(signature).toHaveLength(64);
    const key = await t.app.request('/downloads/release-signing-key.pem');
    expect(key.headers.get('content-type')).toBe('application/x-pem-file');
    const keyPem = await key.text();
    expect(await (await get(release.signingKeyUrl)).text()).toBe(keyPem);
    const sbom = await get(release.sbomUrl ?? '');
    expect(sbom.headers.get('content-type')).toBe('application/vnd.cyclonedx+json');
    expect(await sbom.text()).toBe(await readFile(exampleSbomPath, 'utf8'));

    // The visitor's folder: SHA256SUMS, its signature, the key, and two of the three files.
    const folder = await mkdtemp(path.join(dir, `download-${target.name}-`));
    await writeFile(path.join(folder, SHA256SUMS_FILE), sumsText);
    await writeFile(path.join(folder, SIGNATURE_FILE), signature);
    await writeFile(path.join(folder, SIGNING_KEY_FILE), keyPem);
    const [windows, mac] = files;
    if (!windows || !mac) throw new Error('fake files missing');
    for (const file of [windows, mac])
      await writeFile(path.join(folder, file.fileName), file.bytes);
    const commands = verifyCommands({
      windowsFile: windows.fileName,
      windowsSha256: windows.sha256,
    });
    const shown = (id: VerifyCommand['id']) => {
      const command = commands.find((entry) => entry.id === id);
      if (!command) throw new Error(`no ${id} command`);
      return command;
    };

    for (const id of ['linux', 'macos'] as const) {
      const result = await runShown(shown(id), folder);
      expect(result, id).toMatchObject({ code: 0 });
      expect(result.out).toContain(`${windows.fileName}: OK`);
      expect(result.out).toContain(`${mac.fileName}: OK`);
    }
    const fingerprint = await runShown(shown('fingerprint-linux'), folder);
    expect(fingerprint.out).toContain(t.deps.releaseSigningKey.fingerprint);
    const verified = await runShown(shown('signature'), folder);
    expect(verified).toEqual({ code: 0, out: 'Signature Verified Successfully\n' });

    // A changed file fails the checksum check; a changed SHA256SUMS fails the signature check.
    await writeFile(path.join(folder, mac.fileName), Buffer.concat([mac.bytes, Buffer.from('x')]));
    for (const id of ['linux', 'macos'] as const) {
      const result = await runShown(shown(id), folder);
      expect(result.code, id).not.toBe(0);
      expect(result.out).toContain(`${mac.fileName}: FAILED`);
    }
    const tampered = sumsText.replace(mac.sha256, createHash('sha256').update('x').digest('hex'));
    await writeFile(path.join(folder, SHA256SUMS_FILE), tampered);
    const refused = await runShown(shown('signature'), folder);
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain('Signature Verification Failure');
  });

  it('keeps an SBOM once published: the same again is fine, another is refused, a release without one may get one', async () => {
    const manifest = path.join(dir, `manifest-${target.name}.json`);
    const same = await admin('releases', 'publish', manifest, '--sbom', exampleSbomPath);
    expect(same).toMatchObject({ code: 0, out: expect.stringContaining('nothing changed') });

    const other = JSON.parse(await readFile(exampleSbomPath, 'utf8')) as { version: number };
    other.version = 2;
    const otherPath = path.join(dir, `other-${target.name}.cdx.json`);
    await writeFile(otherPath, JSON.stringify(other));
    for (const extra of [[], ['--dry-run']]) {
      const refused = await admin('releases', 'publish', manifest, '--sbom', otherPath, ...extra);
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/ {2}- sbom: published sha256 [0-9a-f]{64}, given [0-9a-f]{64}/);
    }

    // 3.4.0 without an SBOM, then with one (after a dry run that writes nothing).
    const later = fakeFiles('3.4.0');
    const laterManifest = path.join(dir, `later-${target.name}.json`);
    await writeFile(laterManifest, JSON.stringify(manifestOf('3.4.0', later)));
    expect((await admin('releases', 'publish', laterManifest)).code).toBe(0);
    const without = (await (await t.app.request('/api/releases/latest')).json()) as Release;
    expect(without.sbomUrl).toBeNull();
    const missing = await t.app.request('/downloads/3.4.0/sbom.cdx.json');
    expect(missing.status).toBe(404);
    expect(errorBody.parse(await missing.json()).Error).toBe('SbomNotFound');

    const sbom340 = JSON.parse(await readFile(exampleSbomPath, 'utf8')) as {
      metadata: { component: { version: string } };
    };
    sbom340.metadata.component.version = '3.4.0';
    const sbomPath = path.join(dir, `sbom-340-${target.name}.cdx.json`);
    await writeFile(sbomPath, JSON.stringify(sbom340));
    const dry = await admin('releases', 'publish', laterManifest, '--sbom', sbomPath, '--dry-run');
    expect(dry.out).toContain('Dry run: would add the SBOM to 3.4.0, which has none.');
    expect((await t.app.request('/downloads/3.4.0/sbom.cdx.json')).status).toBe(404);
    const added = await admin('releases', 'publish', laterManifest, '--sbom', sbomPath);
    expect(added.out).toContain('Added the SBOM to 3.4.0; nothing else changed.');
    const withSbom = (await (await t.app.request('/api/releases/latest')).json()) as Release;
    expect(withSbom.sbomUrl).toBe('http://localhost:3000/downloads/3.4.0/sbom.cdx.json');
    expect(await (await t.app.request('/downloads/3.4.0/sbom.cdx.json')).text()).toBe(
      JSON.stringify(sbom340),
    );
  });

  it('refuses an invalid, oversized or mismatched SBOM with one line per problem, writing nothing', async () => {
    const next = fakeFiles('3.5.0');
    const manifest = path.join(dir, `next-${target.name}.json`);
    await writeFile(manifest, JSON.stringify(manifestOf('3.5.0', next)));
    const invalidPath = path.join(dir, `invalid-${target.name}.cdx.json`);
    await writeFile(
      invalidPath,
      JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', components: [{ type: 'x' }] }),
    );
    const invalid = await admin('releases', 'publish', manifest, '--sbom', invalidPath);
    expect(invalid.code).toBe(1);
    expect(invalid.err.split('\n')[0]).toBe(`The SBOM ${invalidPath} is not valid:`);
    expect(invalid.err).toMatch(/ {2}- components\[0\]/);
    const bigPath = path.join(dir, `big-${target.name}.cdx.json`);
    await writeFile(bigPath, Buffer.alloc(5 * 1024 * 1024 + 1, 0x20));
    const big = await admin('releases', 'publish', manifest, '--sbom', bigPath);
    expect(big).toMatchObject({ code: 1, err: expect.stringContaining('an SBOM is at most') });
    const mismatched = await admin('releases', 'publish', manifest, '--sbom', exampleSbomPath);
    expect(mismatched.err).toContain(
      'metadata.component.version: "3.3.0", but the release is 3.5.0',
    );
    expect((await t.app.request('/downloads/3.5.0/SHA256SUMS')).status).toBe(404);
  });

  it('serves the files to GET and HEAD only, 404 JSON for unknown versions and keys', async () => {
    const head = await t.app.request(`/downloads/${VERSION}/SHA256SUMS`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const pathname of [
      '/downloads/9.9.9/SHA256SUMS',
      '/downloads/9.9.9/SHA256SUMS.sig',
      '/downloads/9.9.9/sbom.cdx.json',
      '/downloads/not-a-version/SHA256SUMS',
    ]) {
      const res = await t.app.request(pathname);
      expect(res.status, pathname).toBe(404);
      expect(errorBody.parse(await res.json()).Error, pathname).toBe('ReleaseNotFound');
    }
    const unknownKey = await t.app.request('/downloads/release-signing-keys/0000000000000000.pem');
    expect(unknownKey.status).toBe(404);
    expect(errorBody.parse(await unknownKey.json()).Error).toBe('SigningKeyNotFound');
    for (const pathname of [
      `/downloads/${VERSION}/SHA256SUMS`,
      `/downloads/${VERSION}/SHA256SUMS.sig`,
      `/downloads/${VERSION}/sbom.cdx.json`,
      '/downloads/release-signing-key.pem',
      `/downloads/release-signing-keys/${t.deps.releaseSigningKey.keyId}.pem`,
    ]) {
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const res = await t.app.request(pathname, { method, headers: csrfHeaders() });
        expect(res.status, `${method} ${pathname}`).toBe(405);
        expect(res.headers.get('allow')).toBe('GET, HEAD');
        expect(errorBody.parse(await res.json()).Error).toBe('MethodNotAllowed');
      }
    }
    const query = await t.app.request(`/downloads/${VERSION}/SHA256SUMS?x=1`);
    expect(query.status).toBe(400);
  });

  it('keeps older releases verifiable with their own key after a rotation', async () => {
    const oldKey = t.deps.releaseSigningKey;
    const rotatedPem = generateEd25519PrivateKeyPem();
    const rotated = buildApp(
      await assembleDeps({
        env: parseEnv({
          NODE_ENV: 'test',
          PUBLIC_BASE_URL: 'http://localhost:3000',
          LOG_LEVEL: 'silent',
          RELEASE_SIGNING_KEY: rotatedPem,
        }),
        database: t.deps.database,
        logger: createLogger('silent'),
        clock: () => new Date(),
        secretKey: 'test-secret-key-test-secret-key-0123456789',
        wakeOutbox: () => undefined,
      }),
    );
    const current = await (await rotated.request('/downloads/release-signing-key.pem')).text();
    expect(current).not.toBe(oldKey.publicKeyPem);
    const list = (await (await rotated.request('/api/releases')).json()) as { releases: Release[] };
    const old = list.releases.find((release) => release.version === VERSION);
    expect(old?.signingKeyUrl).toBe(
      `http://localhost:3000/downloads/release-signing-keys/${oldKey.keyId}.pem`,
    );
    const oldPem = await (await rotated.request(new URL(old?.signingKeyUrl ?? '').pathname)).text();
    expect(oldPem).toBe(oldKey.publicKeyPem);
    const sums = await (await rotated.request(`/downloads/${VERSION}/SHA256SUMS`)).text();
    const signature = Buffer.from(
      await (await rotated.request(`/downloads/${VERSION}/SHA256SUMS.sig`)).arrayBuffer(),
    ).toString('base64');
    expect(verifyText(sums, signature, oldPem)).toBe(true);
    expect(verifyText(sums, signature, current)).toBe(false);
  });
});
