import { describe, expect, it } from 'vitest';
import { artifactFileName, downloadUri } from './file-names.ts';

describe('artifact file names and download links', () => {
  it.each([
    [
      { operatingSystem: 'Windows', architecture: 'x64', format: 'msi' },
      'orgsmith-3.2.2-win-x64.msi',
    ],
    [
      { operatingSystem: 'Windows', architecture: 'x86', format: 'zip' },
      'orgsmith-3.2.2-win-x86.zip',
    ],
    [
      { operatingSystem: 'macOS', architecture: 'universal', format: 'pkg' },
      'orgsmith-3.2.2-osx-universal.pkg',
    ],
    [
      { operatingSystem: 'macOS', architecture: 'arm64', format: 'zip' },
      'orgsmith-3.2.2-osx-arm64.zip',
    ],
    [
      { operatingSystem: 'Linux', architecture: 'arm64', format: 'zip' },
      'orgsmith-3.2.2-linux-arm64.zip',
    ],
  ] as const)('%o → %s', (selection, expected) => {
    expect(artifactFileName('3.2.2', selection)).toBe(expected);
  });

  it('keeps a pre-release version in the name', () => {
    expect(
      artifactFileName('3.3.0-beta.1', {
        operatingSystem: 'Linux',
        architecture: 'x64',
        format: 'zip',
      }),
    ).toBe('orgsmith-3.3.0-beta.1-linux-x64.zip');
  });

  it('joins the file host and the file name with exactly one slash', () => {
    expect(downloadUri('https://downloads.orgsmith.io/cli', 'orgsmith-3.2.2-win-x64.msi')).toBe(
      'https://downloads.orgsmith.io/cli/orgsmith-3.2.2-win-x64.msi',
    );
    expect(downloadUri('https://files.example.com/', 'orgsmith-3.2.2-win-x64.msi')).toBe(
      'https://files.example.com/orgsmith-3.2.2-win-x64.msi',
    );
  });
});
