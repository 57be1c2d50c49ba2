import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultArtifactDescription, type Release } from '#shared/downloads/catalog.ts';
import { artifactFileName } from '#shared/downloads/file-names.ts';
import { parseReleaseManifest } from '#server/licensing/releases/release-manifest.ts';
import { publishRelease } from '#server/licensing/releases/publish-release.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, csrfHeaders, type TestApp } from '../support/test-app.ts';

const FILE_HOST = 'https://files.example.test/cli';
const UA = {
  windows64:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  windows32: 'Mozilla/5.0 (Windows NT 10.0; rv:115.0) Gecko/20100101 Firefox/115.0',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  linux:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
};

function manifestRelease(manifest: object) {
  const parsed = parseReleaseManifest(JSON.stringify(manifest));
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return parsed.release;
}

const sha = (n: number) => n.toString(16).padStart(2, '0').repeat(32);
const betaRelease = manifestRelease({
  version: '3.3.0-beta.1',
  releaseDate: '2025-06-20',
  notes: ['Preview of <faster> retrievals & more.'],
  artifacts: [
    { operatingSystem: 'Linux', architecture: 'x64', format: 'zip', sha256: sha(1), sizeBytes: 10 },
  ],
});

async function json(res: Response): Promise<unknown> {
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return res.json();
}

describe.each(databaseTargets)('release APIs on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { env: { DOWNLOAD_BASE_URL: `${FILE_HOST}/` } });
  });
  afterAll(() => t.close());

  describe('the seeded catalog', () => {
    it('lists 3.2.2 and 3.2.1, newest first, with every artifact of docs/product-rules.md#pages', async () => {
      const res = await t.app.request('/api/releases');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
      const { releases } = (await json(res)) as { releases: Release[] };
      expect(releases.map((r) => [r.version, r.releaseDate, r.prerelease])).toEqual([
        ['3.2.2', '2025-06-07', false],
        ['3.2.1', '2025-05-30', false],
      ]);
      for (const release of releases) {
        expect(
          release.artifacts.map((a) => `${a.operatingSystem} ${a.format} ${a.architecture}`),
        ).toEqual([
          'Windows msi x64',
          'Windows msi x86',
          'Windows zip x64',
          'Windows zip x86',
          'macOS pkg universal',
          'macOS pkg x64',
          'macOS pkg arm64',
          'macOS zip universal',
          'macOS zip x64',
          'macOS zip arm64',
          'Linux zip x64',
          'Linux zip arm64',
        ]);
        for (const artifact of release.artifacts) {
          const fileName = artifactFileName(release.version, artifact);
          expect(artifact.fileName).toBe(fileName);
          // Links come from DOWNLOAD_BASE_URL at read time, not from the stored rows.
          expect(artifact.downloadUri).toBe(`${FILE_HOST}/${fileName}`);
          expect(artifact.description).toBe(defaultArtifactDescription(artifact));
          expect(artifact.sha256).toMatch(/^[0-9a-f]{64}$/);
          expect(artifact.sizeBytes).toBeGreaterThan(40_000_000);
        }
      }
      expect(releases[0]?.notes.join(' ')).toContain(
        '`INSUFFICIENT_ACCESS: Inactive Organization`',
      );
      expect(releases[1]?.notes.join(' ')).toMatch(/access-token argument/);
    });

    it('answers the latest release, filtered by version', async () => {
      const latest = async (query: string) => {
        const res = await t.app.request(`/api/releases/latest${query}`);
        return {
          status: res.status,
          body: (await json(res)) as Release & { Error?: string; message?: string },
        };
      };
      expect((await latest('')).body.version).toBe('3.2.2');
      expect((await latest('?versionFilter=3.2&includePrerelease=false')).body.version).toBe(
        '3.2.2',
      );
      expect((await latest('?versionFilter=3')).body.version).toBe('3.2.2');
      expect((await latest('?versionFilter=3.2.1')).body.version).toBe('3.2.1');
      expect((await latest('?versionFilter=v3.2.x')).body.version).toBe('3.2.2');
      expect((await latest('?versionFilter=latest')).body.version).toBe('3.2.2');
      expect((await latest('?versionFilter=')).body.version).toBe('3.2.2');
      const none = await latest('?versionFilter=3.1');
      expect(none.status).toBe(404);
      expect(none.body).toEqual({
        Error: 'ReleaseNotFound',
        message: 'No published release matches (version filter 3.1, stable releases only).',
      });
    });
  });

  describe('bad parameters: 400 with a clear message', () => {
    it.each([
      ['/api/releases?page=2', 'Unknown query parameter "page". None are allowed.'],
      [
        '/api/releases/latest?version=3.2',
        'Unknown query parameter "version". Allowed: versionFilter, includePrerelease.',
      ],
      [
        '/api/releases/latest?versionFilter=>=3.2',
        'Query parameter "versionFilter": must be a version or version prefix such as 3, 3.2, 3.2.x, 3.2.2 or 3.3.0-beta.1.',
      ],
      [
        '/api/releases/latest?includePrerelease=yes',
        'Query parameter "includePrerelease": must be true or false.',
      ],
      [
        '/api/releases/latest?versionFilter=3&versionFilter=4',
        'Query parameter "versionFilter" may be given only once.',
      ],
      [
        '/api/downloads/suggested?os=beos',
        'Query parameter "os": must be one of windows, win, macos, osx, mac, linux.',
      ],
      [
        '/api/downloads/suggested?arch=z80',
        'Query parameter "arch": must be one of amd64, x64, x86_64, x86-64, ia32, x86, i386, i686, arm64, aarch64, arm, armhf, armv7, armv7l, ia64, mips64, mips.',
      ],
      [
        '/api/downloads/suggested?format=msi',
        'Unknown query parameter "format". Allowed: os, arch.',
      ],
      [
        '/download/latest/solaris/x64/zip',
        'Unknown operating system "solaris". Use windows, macos or linux.',
      ],
      [
        '/download/latest/windows/amd64/msi',
        'Unknown architecture "amd64". Use x86, x64, arm64, universal.',
      ],
      ['/download/latest/windows/x64/exe', 'Unknown format "exe". Use msi, zip, pkg.'],
      [
        '/download/latest/windows/x64/msi?channel=beta',
        'Unknown query parameter "channel". Allowed: versionFilter, includePrerelease.',
      ],
      ['/download/feed.atom?limit=5', 'Unknown query parameter "limit". None are allowed.'],
    ])('%s', async (path, message) => {
      const res = await t.app.request(path);
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({ Error: 'InvalidRequest', message });
    });

    it('answers other methods than GET with 405 JSON', async () => {
      for (const path of [
        '/api/releases',
        '/api/releases/latest',
        '/download/latest/win/x64/msi',
      ]) {
        const res = await t.app.request(path, { method: 'POST', headers: csrfHeaders() });
        expect(res.status, path).toBe(405);
        expect(res.headers.get('allow')).toBe('GET, HEAD');
        expect(await json(res)).toEqual({
          Error: 'MethodNotAllowed',
          message: 'POST is not allowed here; use GET.',
        });
      }
      const head = await t.app.request('/api/releases/latest', { method: 'HEAD' });
      expect(head.status).toBe(200);
    });

    it('never answers 500 to odd input', async () => {
      for (const path of [
        '/api/releases/latest?versionFilter=%E0%A4%A',
        '/api/releases/latest?versionFilter=99999999999999999999',
        '/download/latest/%E0%A4%A/x64/msi',
        '/download/latest/windows/x64/msi?versionFilter=' + 'x'.repeat(5000),
        '/api/downloads/suggested?os=&arch=',
      ]) {
        const res = await t.app.request(path, { headers: { 'User-Agent': '(('.repeat(5000) } });
        expect(res.status, path).toBeGreaterThanOrEqual(300);
        expect(res.status, path).toBeLessThan(500);
      }
    });
  });

  describe('GET /api/downloads/suggested', () => {
    const suggested = async (query: string, headers: Record<string, string>) => {
      const res = await t.app.request(`/api/downloads/suggested${query}`, { headers });
      expect(res.status).toBe(200);
      return (await json(res)) as {
        detected: { os: string; cpu: string | null };
        artifact: {
          fileName: string;
          version: { label: string; releaseDate: string };
          description: string;
          downloadUri: string;
        };
      };
    };

    it('suggests from the user agent and client hints', async () => {
      expect((await suggested('', { 'User-Agent': UA.windows64 })).artifact.fileName).toBe(
        'orgsmith-3.2.2-win-x64.msi',
      );
      expect((await suggested('', { 'User-Agent': UA.windows32 })).artifact.fileName).toBe(
        'orgsmith-3.2.2-win-x86.msi',
      );
      expect((await suggested('', { 'User-Agent': UA.mac })).artifact.fileName).toBe(
        'orgsmith-3.2.2-osx-universal.pkg',
      );
      const linuxArm = await suggested('', {
        'User-Agent': UA.linux,
        'Sec-CH-UA-Platform': '"Linux"',
        'Sec-CH-UA-Arch': '"arm"',
        'Sec-CH-UA-Bitness': '"64"',
      });
      expect(linuxArm.detected).toEqual({ os: 'Linux', cpu: 'arm64' });
      expect(linuxArm.artifact).toEqual({
        description: 'Linux zip archive for arm64',
        version: { label: '3.2.2', releaseDate: '2025-06-07' },
        operatingSystem: 'Linux',
        architecture: 'arm64',
        format: 'zip',
        downloadUri: `${FILE_HOST}/orgsmith-3.2.2-linux-arm64.zip`,
        fileName: 'orgsmith-3.2.2-linux-arm64.zip',
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        sizeBytes: expect.any(Number),
      });
      // Unknown visitors get Windows; without a CPU hint, the x86 build that runs everywhere.
      expect((await suggested('', { 'User-Agent': 'curl/8.5.0' })).artifact.fileName).toBe(
        'orgsmith-3.2.2-win-x86.msi',
      );
    });

    it('takes os and arch from the query, overriding the user agent', async () => {
      const body = await suggested('?os=linux&arch=aarch64', { 'User-Agent': UA.windows64 });
      expect(body.artifact.fileName).toBe('orgsmith-3.2.2-linux-arm64.zip');
      expect((await suggested('?os=Windows&arch=arm64', {})).artifact.fileName).toBe(
        'orgsmith-3.2.2-win-x64.msi',
      );
      expect((await suggested('?os=osx', {})).artifact.fileName).toBe(
        'orgsmith-3.2.2-osx-universal.pkg',
      );
    });

    it('marks the answer as varying by user agent and asks for CPU client hints', async () => {
      const res = await t.app.request('/api/downloads/suggested', {
        headers: { 'User-Agent': UA.mac },
      });
      expect(res.headers.get('vary')).toContain('User-Agent');
      expect(res.headers.get('vary')).toContain('Sec-CH-UA-Arch');
      expect(res.headers.get('accept-ch')).toContain('Sec-CH-UA-Bitness');
      expect(res.headers.get('cache-control')).toBe('private, no-cache');
    });
  });

  describe('GET /download/latest/{os}/{arch}/{format}', () => {
    it('redirects to the file of the latest release', async () => {
      for (const [path, file] of [
        ['/download/latest/windows/x64/msi', 'orgsmith-3.2.2-win-x64.msi'],
        ['/download/latest/win/x86/zip', 'orgsmith-3.2.2-win-x86.zip'],
        ['/download/latest/macOS/universal/pkg', 'orgsmith-3.2.2-osx-universal.pkg'],
        ['/download/latest/linux/arm64/zip', 'orgsmith-3.2.2-linux-arm64.zip'],
        ['/download/latest/linux/x64/zip?versionFilter=3.2.1', 'orgsmith-3.2.1-linux-x64.zip'],
      ] as const) {
        const res = await t.app.request(path);
        expect(res.status, path).toBe(302);
        expect(res.headers.get('location')).toBe(`${FILE_HOST}/${file}`);
      }
    });

    it('answers 404 JSON for a build that does not exist', async () => {
      const res = await t.app.request('/download/latest/linux/x86/zip');
      expect(res.status).toBe(404);
      expect(await json(res)).toEqual({
        Error: 'ArtifactNotFound',
        message: 'Release 3.2.2 has no Linux x86 .zip build.',
      });
      const none = await t.app.request('/download/latest/linux/x64/zip?versionFilter=9');
      expect(none.status).toBe(404);
      expect(await json(none)).toMatchObject({ Error: 'ReleaseNotFound' });
    });
  });

  describe('publishing', () => {
    const signing = () => ({ signingKey: t.deps.releaseSigningKey, now: new Date() });
    it('keeps pre-releases out of "latest" unless asked for, and shows them in the feed', async () => {
      expect(await publishRelease(t.deps.database.db, betaRelease, signing())).toEqual({
        outcome: 'published',
        version: '3.3.0-beta.1',
        keyId: t.deps.releaseSigningKey.keyId,
        sbomAdded: false,
      });
      const stable = await t.app.request('/api/releases/latest');
      expect(((await json(stable)) as Release).version).toBe('3.2.2');
      const pre = await t.app.request('/api/releases/latest?includePrerelease=true');
      expect(((await json(pre)) as Release).version).toBe('3.3.0-beta.1');
      const exact = await t.app.request('/api/releases/latest?versionFilter=3.3.0-beta.1');
      expect(((await json(exact)) as Release).version).toBe('3.3.0-beta.1');
      expect((await t.app.request('/download/latest/linux/x64/zip')).headers.get('location')).toBe(
        `${FILE_HOST}/orgsmith-3.2.2-linux-x64.zip`,
      );
      const list = (await json(await t.app.request('/api/releases'))) as { releases: Release[] };
      expect(list.releases.map((r) => r.version)).toEqual(['3.3.0-beta.1', '3.2.2', '3.2.1']);
    });

    it('makes a new stable release the latest at once, without restarting anything', async () => {
      const release = manifestRelease({
        version: '3.10.0',
        releaseDate: '2025-09-01',
        notes: ['A later release.'],
        artifacts: [
          {
            operatingSystem: 'Windows',
            architecture: 'x64',
            format: 'msi',
            sha256: sha(2),
            sizeBytes: 99,
          },
        ],
      });
      // Two publishers racing for the same version: one writes, the other finds it unchanged.
      const results = await Promise.all([
        publishRelease(t.deps.database.db, release, signing()),
        publishRelease(t.deps.database.db, release, signing()),
      ]);
      expect(results.map((r) => r.outcome).sort()).toEqual(['published', 'unchanged']);
      const latest = (await json(await t.app.request('/api/releases/latest'))) as Release;
      expect(latest.version).toBe('3.10.0');
      expect(latest.artifacts).toHaveLength(1);
      // 3.10.0 has no Linux build: the suggestion says so instead of pointing elsewhere.
      const missing = await t.app.request('/api/downloads/suggested?os=linux');
      expect(missing.status).toBe(404);
      expect(await json(missing)).toEqual({
        Error: 'ArtifactNotFound',
        message: 'The latest release has no Linux x64 .zip build.',
      });

      const changed = { ...release, releaseDate: '2025-09-02' };
      const refused = await publishRelease(t.deps.database.db, changed, signing());
      expect(refused).toEqual({
        outcome: 'conflict',
        version: '3.10.0',
        differences: ['releaseDate: published 2025-09-01, manifest 2025-09-02'],
      });
      const after = (await json(await t.app.request('/api/releases/latest'))) as Release;
      expect(after.releaseDate).toBe('2025-09-01');
    });

    it('serves an Atom feed of every release, newest first, with escaped notes', async () => {
      const res = await t.app.request('/download/feed.atom');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
      const xml = await res.text();
      expect(xml).toMatch(
        /^<\?xml version="1.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/,
      );
      expect(xml).toContain(
        '<link rel="self" type="application/atom+xml" href="http://localhost:3000/download/feed.atom"/>',
      );
      expect([...xml.matchAll(/<title>([^<]+)<\/title>/g)].map((m) => m[1])).toEqual([
        'Orgsmith CLI releases',
        'Orgsmith 3.10.0',
        'Orgsmith 3.3.0-beta.1 (pre-release)',
        'Orgsmith 3.2.2',
        'Orgsmith 3.2.1',
      ]);
      expect(xml).toContain('<updated>2025-09-01T00:00:00Z</updated>');
      expect(xml).toContain('<id>http://localhost:3000/download#release-3.2.2</id>');
      // Notes are HTML inside the XML: escaped twice, so no markup of theirs survives.
      expect(xml).toContain('&lt;code&gt;INSUFFICIENT_ACCESS: Inactive Organization&lt;/code&gt;');
      expect(xml).toContain('Preview of &amp;lt;faster&amp;gt; retrievals &amp;amp; more.');
      expect(xml).not.toContain('<faster>');
      expect(xml).toContain(`${FILE_HOST}/orgsmith-3.2.2-osx-universal.pkg`);
    });
  });
});
