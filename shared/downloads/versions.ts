import type { SemVer } from 'semver';
import compare from 'semver/functions/compare.js';
import parse from 'semver/functions/parse.js';
import type { Release } from './catalog.ts';

/**
 * Semantic versions (semver.org 2.0) as the release catalog uses them: ordering, and the version
 * filters scripts pass to `/api/releases/latest` (`3`, `3.2`, `3.2.x`, `3.2.2`, `3.3.0-beta.1`).
 * Build metadata (`+...`) is not accepted: the version becomes part of file names and URLs.
 */
export interface SemanticVersion {
  major: number;
  minor: number;
  patch: number;
  /** Dot-separated pre-release identifiers; empty for a stable release. */
  prerelease: string[];
}

/** A version string such as `3.2.2` or `3.3.0-rc.1`, or `null` when it is not one. */
export function parseVersion(text: string): SemanticVersion | null {
  const version = parse(text);
  // Only the plain form: semver also reads a leading `v`, spaces and build metadata, and a
  // version becomes part of file names and URLs as written.
  if (!version || version.raw !== version.version || !withinDigits(version)) return null;
  const { major, minor, patch } = version;
  return { major, minor, patch, prerelease: version.prerelease.map(String) };
}

/** At most nine digits per number, as the catalog has always accepted. */
function withinDigits({ major, minor, patch, prerelease }: SemVer): boolean {
  return [major, minor, patch, ...prerelease].every(
    (part) => typeof part !== 'number' || part <= maxNumber,
  );
}
const maxNumber = 999_999_999;

export function isVersion(text: string): boolean {
  return parseVersion(text) !== null;
}

export function isPrereleaseVersion(text: string): boolean {
  return (parseVersion(text)?.prerelease.length ?? 0) > 0;
}

function format({ major, minor, patch, prerelease }: SemanticVersion): string {
  const core = `${major}.${minor}.${patch}`;
  return prerelease.length > 0 ? `${core}-${prerelease.join('.')}` : core;
}

/** Semver precedence: negative when `a` is older than `b`, 0 when equal, positive when newer. */
export function compareVersions(a: SemanticVersion, b: SemanticVersion): number {
  return compare(format(a), format(b));
}

/** Compares version strings; anything that is not a version sorts before every version. */
export function compareVersionStrings(a: string, b: string): number {
  const left = isVersion(a);
  const right = isVersion(b);
  if (!left || !right) return left ? 1 : right ? -1 : 0;
  return compare(a, b);
}

/** Which versions a filter admits: a major, major.minor or major.minor.patch prefix, or one exact pre-release. */
export interface VersionFilter {
  major: number;
  minor?: number;
  patch?: number;
  /** Set only when the filter names one exact pre-release version. */
  prerelease?: string[];
}

const numeric = '0|[1-9]\\d{0,8}';
const prefixPattern = new RegExp(
  `^v?(${numeric})(?:\\.(${numeric}|x|\\*))?(?:\\.(${numeric}|x|\\*))?$`,
  'i',
);

/**
 * Parses a version filter: `3`, `3.2`, `3.2.x`, `3.x`, `3.2.2`, an exact pre-release such as
 * `3.3.0-beta.1`, each optionally with a leading `v`. Returns `null` when the text is none of these.
 */
export function parseVersionFilter(text: string): VersionFilter | null {
  const exact = parseVersion(text.replace(/^v/i, ''));
  if (exact && exact.prerelease.length > 0) return exact;
  const match = prefixPattern.exec(text);
  if (!match) return null;
  const [, major, minor, patch] = match;
  const isNumber = (part: string | undefined): part is string =>
    part !== undefined && /^\d+$/.test(part);
  // `3.x.1` is not a filter: a wildcard can only end it.
  if (!isNumber(minor) && isNumber(patch)) return null;
  return {
    major: Number(major),
    ...(isNumber(minor) ? { minor: Number(minor) } : {}),
    ...(isNumber(minor) && isNumber(patch) ? { patch: Number(patch) } : {}),
  };
}

export function matchesVersionFilter(version: SemanticVersion, filter: VersionFilter): boolean {
  if (version.major !== filter.major) return false;
  if (filter.minor !== undefined && version.minor !== filter.minor) return false;
  if (filter.patch !== undefined && version.patch !== filter.patch) return false;
  if (filter.prerelease) return filter.prerelease.join('.') === version.prerelease.join('.');
  return true;
}

export interface LatestReleaseQuery {
  versionFilter?: VersionFilter | undefined;
  /** Pre-releases count only when asked for (or when the filter names one exactly). */
  includePrerelease?: boolean | undefined;
}

/** The newest of the given releases that the query admits, or `undefined`. */
export function pickLatestRelease<R extends { version: string; prerelease: boolean }>(
  releases: readonly R[],
  query: LatestReleaseQuery = {},
): R | undefined {
  const includePrerelease =
    query.includePrerelease === true || query.versionFilter?.prerelease !== undefined;
  let best: { release: R; version: SemanticVersion } | undefined;
  for (const release of releases) {
    const version = parseVersion(release.version);
    if (!version) continue;
    if (!includePrerelease && (release.prerelease || version.prerelease.length > 0)) continue;
    if (query.versionFilter && !matchesVersionFilter(version, query.versionFilter)) continue;
    if (!best || compareVersions(version, best.version) > 0) best = { release, version };
  }
  return best?.release;
}

/** Newest first, by semver precedence. */
export function sortNewestFirst<R extends { version: string }>(releases: readonly R[]): R[] {
  return [...releases].sort((a, b) => compareVersionStrings(b.version, a.version));
}

/** The read side of the release catalog, as the site's loaders get it (`SiteServices.releases`). */
export interface ReleaseCatalogReader {
  /** Every release, newest version first, with download links. */
  listReleases(): Promise<Release[]>;
  /** The newest stable release unless the query says otherwise. */
  findLatestRelease(query?: LatestReleaseQuery): Promise<Release | undefined>;
}
