import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseReleaseManifest } from './release-manifest.ts';
import { releaseDifferences } from './publish-release.ts';

const sha = 'ab'.repeat(32);
const artifact = {
  operatingSystem: 'Linux',
  architecture: 'x64',
  format: 'zip',
  sha256: sha,
  sizeBytes: 1000,
};
const valid = {
  version: '3.3.0',
  releaseDate: '2025-07-15',
  notes: ['Faster retrievals.'],
  artifacts: [artifact],
};

function errorsOf(manifest: unknown): string[] {
  const result = parseReleaseManifest(JSON.stringify(manifest));
  return result.ok ? [] : result.errors;
}

describe('release manifest', () => {
  it('accepts the example in docs/ and fills in file names and descriptions', () => {
    const text = readFileSync(
      new URL('../../../docs/release-manifest.example.json', import.meta.url),
      'utf8',
    );
    const result = parseReleaseManifest(text);
    if (!result.ok) throw new Error(result.errors.join('\n'));
    expect(result.release.version).toBe('3.3.0');
    expect(result.release.prerelease).toBe(false);
    expect(result.release.artifacts).toHaveLength(12);
    expect(result.release.artifacts[1]).toMatchObject({
      fileName: 'orgsmith-3.3.0-win-x86.msi',
      description: 'Windows installer (.msi) for 32-bit Windows',
    });
  });

  it('lowercases checksums and derives the pre-release flag from the version', () => {
    const result = parseReleaseManifest(
      JSON.stringify({
        ...valid,
        version: '3.4.0-rc.1',
        artifacts: [{ ...artifact, sha256: sha.toUpperCase() }],
      }),
    );
    if (!result.ok) throw new Error(result.errors.join('\n'));
    expect(result.release.prerelease).toBe(true);
    expect(result.release.artifacts[0]?.sha256).toBe(sha);
    expect(result.release.artifacts[0]?.fileName).toBe('orgsmith-3.4.0-rc.1-linux-x64.zip');
  });

  it.each([
    ['not JSON', '{', /not valid JSON/],
    ['a bad version', { ...valid, version: '3.3' }, /^version: must be a semantic version/],
    ['build metadata', { ...valid, version: '3.3.0+42' }, /^version:/],
    ['a bad date', { ...valid, releaseDate: '15.07.2025' }, /^releaseDate: must be a date/],
    ['an impossible date', { ...valid, releaseDate: '2025-02-30' }, /^releaseDate:/],
    ['no notes', { ...valid, notes: [] }, /^notes: needs at least one/],
    ['an empty note', { ...valid, notes: ['  '] }, /^notes\[0\]:/],
    ['no artifacts', { ...valid, artifacts: [] }, /^artifacts: needs at least one/],
    [
      'a short checksum',
      { ...valid, artifacts: [{ ...artifact, sha256: 'abc' }] },
      /^artifacts\[0\]\.sha256: must be 64 hexadecimal/,
    ],
    [
      'a zero size',
      { ...valid, artifacts: [{ ...artifact, sizeBytes: 0 }] },
      /^artifacts\[0\]\.sizeBytes:/,
    ],
    [
      'a fractional size',
      { ...valid, artifacts: [{ ...artifact, sizeBytes: 1.5 }] },
      /^artifacts\[0\]\.sizeBytes:/,
    ],
    [
      'an unknown OS',
      { ...valid, artifacts: [{ ...artifact, operatingSystem: 'BeOS' }] },
      /^artifacts\[0\]\.operatingSystem:/,
    ],
    [
      'a Linux msi',
      { ...valid, artifacts: [{ ...artifact, format: 'msi' }] },
      /Linux \| x64 \| msi does not exist/,
    ],
    [
      'a Windows universal build',
      {
        ...valid,
        artifacts: [{ ...artifact, operatingSystem: 'Windows', architecture: 'universal' }],
      },
      /does not exist/,
    ],
    [
      'a duplicate artifact',
      { ...valid, artifacts: [artifact, artifact] },
      /Linux \| x64 \| zip is listed twice/,
    ],
    [
      'a wrong file name',
      { ...valid, artifacts: [{ ...artifact, fileName: 'orgsmith-linux.zip' }] },
      /fileName: must be orgsmith-3\.3\.0-linux-x64\.zip/,
    ],
    ['an unknown field', { ...valid, channel: 'beta' }, /^manifest: Unrecognized key/],
    [
      'a stable flag on a pre-release version',
      { ...valid, version: '3.4.0-beta.1', prerelease: false },
      /^prerelease: must be true/,
    ],
    ['not an object', [valid], /^manifest:/],
  ])('rejects %s', (_name, manifest, message) => {
    const errors =
      typeof manifest === 'string'
        ? ((r) => (r.ok ? [] : r.errors))(parseReleaseManifest(manifest))
        : errorsOf(manifest);
    expect(
      errors.some((error) => message.test(error)),
      errors.join('\n'),
    ).toBe(true);
  });

  it('lists what a changed manifest would alter', () => {
    const base = parseReleaseManifest(JSON.stringify(valid));
    const changed = parseReleaseManifest(
      JSON.stringify({
        ...valid,
        releaseDate: '2025-07-16',
        artifacts: [
          { ...artifact, sha256: 'cd'.repeat(32) },
          { ...artifact, architecture: 'arm64' },
        ],
      }),
    );
    if (!base.ok || !changed.ok) throw new Error('fixtures must be valid');
    expect(releaseDifferences(base.release, base.release)).toEqual([]);
    expect(releaseDifferences(base.release, changed.release)).toEqual([
      'releaseDate: published 2025-07-15, manifest 2025-07-16',
      `artifact Linux | x64 | zip: sha256 published ${sha}, manifest ${'cd'.repeat(32)}`,
      'artifact Linux | arm64 | zip: not in the published release',
    ]);
  });
});
