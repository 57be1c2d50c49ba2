import { describe, expect, it } from 'vitest';
import {
  compareVersionStrings,
  isPrereleaseVersion,
  parseVersion,
  parseVersionFilter,
  pickLatestRelease,
  sortNewestFirst,
} from './versions.ts';

describe('semantic versions', () => {
  it('parses versions and rejects what is not one', () => {
    expect(parseVersion('3.2.2')).toEqual({ major: 3, minor: 2, patch: 2, prerelease: [] });
    expect(parseVersion('3.3.0-beta.1')).toEqual({
      major: 3,
      minor: 3,
      patch: 0,
      prerelease: ['beta', '1'],
    });
    for (const bad of [
      '3.2',
      '03.2.2',
      '3.2.2+build.5',
      'v3.2.2',
      '3.2.2-',
      '3.2.2-01',
      '',
      ' 3.2.2',
    ])
      expect(parseVersion(bad), bad).toBeNull();
    expect(isPrereleaseVersion('3.3.0-rc.1')).toBe(true);
    expect(isPrereleaseVersion('3.3.0')).toBe(false);
  });

  it('orders by semver precedence', () => {
    // The example ordering of semver.org §11.
    const ordered = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '2.0.0',
      '2.1.0',
      '2.1.1',
      '3.2.1',
      '3.2.2',
      '3.10.0',
    ];
    for (let i = 0; i < ordered.length - 1; i++) {
      const older = ordered[i] ?? '';
      const newer = ordered[i + 1] ?? '';
      expect(compareVersionStrings(older, newer), `${older} < ${newer}`).toBeLessThan(0);
      expect(compareVersionStrings(newer, older)).toBeGreaterThan(0);
    }
    expect(compareVersionStrings('3.2.2', '3.2.2')).toBe(0);
    expect(sortNewestFirst([...ordered].reverse().map((version) => ({ version })))[0]).toEqual({
      version: '3.10.0',
    });
  });

  it('parses version filters', () => {
    expect(parseVersionFilter('3')).toEqual({ major: 3 });
    expect(parseVersionFilter('3.2')).toEqual({ major: 3, minor: 2 });
    expect(parseVersionFilter('3.2.x')).toEqual({ major: 3, minor: 2 });
    expect(parseVersionFilter('v3.*')).toEqual({ major: 3 });
    expect(parseVersionFilter('3.2.2')).toEqual({ major: 3, minor: 2, patch: 2 });
    expect(parseVersionFilter('3.3.0-beta.1')).toEqual({
      major: 3,
      minor: 3,
      patch: 0,
      prerelease: ['beta', '1'],
    });
    for (const bad of ['', 'latest', '3.x.1', '3.2.2.1', 'x', '>=3.2', '3..2', '3.2-'])
      expect(parseVersionFilter(bad), bad).toBeNull();
  });

  it('picks the newest admitted release', () => {
    const releases = [
      { version: '3.2.1', prerelease: false },
      { version: '3.10.0', prerelease: false },
      { version: '3.2.2', prerelease: false },
      { version: '4.0.0-beta.1', prerelease: true },
      { version: '3.11.0', prerelease: true },
    ];
    expect(pickLatestRelease(releases)?.version).toBe('3.10.0');
    expect(pickLatestRelease(releases, { includePrerelease: true })?.version).toBe('4.0.0-beta.1');
    expect(pickLatestRelease(releases, { versionFilter: { major: 3, minor: 2 } })?.version).toBe(
      '3.2.2',
    );
    expect(
      pickLatestRelease(releases, { versionFilter: { major: 3, minor: 2, patch: 1 } })?.version,
    ).toBe('3.2.1');
    expect(pickLatestRelease(releases, { versionFilter: { major: 4 } })).toBeUndefined();
    expect(
      pickLatestRelease(releases, { versionFilter: { major: 4 }, includePrerelease: true })
        ?.version,
    ).toBe('4.0.0-beta.1');
    // Naming a pre-release exactly admits it.
    expect(
      pickLatestRelease(releases, {
        versionFilter: { major: 4, minor: 0, patch: 0, prerelease: ['beta', '1'] },
      })?.version,
    ).toBe('4.0.0-beta.1');
    expect(pickLatestRelease([])).toBeUndefined();
  });
});
