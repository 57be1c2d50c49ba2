import { printTable } from '#server/admin/command-io.ts';
import { readFile, stat } from 'node:fs/promises';
import { AdminError, EXIT_OK, type AdminCommand } from '../admin/command.ts';
import { pickLatestRelease } from '#shared/downloads/versions.ts';
import { listReleases } from './list-releases.ts';
import { parseReleaseManifest } from './release-manifest.ts';
import { publishRelease, releaseDifferences } from './publish-release.ts';
import { createReleaseRepository } from './release-repository.ts';

const MAX_MANIFEST_BYTES = 1_000_000;

async function readManifest(file: string): Promise<string> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new AdminError(`${file} is not a file.`);
    if (info.size > MAX_MANIFEST_BYTES) {
      throw new AdminError(`${file} is ${info.size} bytes; a manifest is at most 1 MB.`);
    }
    return await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof AdminError) throw error;
    throw new AdminError(`Cannot read ${file}: ${error instanceof Error ? error.message : error}`);
  }
}

const publish: AdminCommand = {
  name: 'releases publish',
  summary: 'Publish a release from a manifest file',
  details: [
    'Validates the manifest (version, releaseDate, prerelease, notes, artifacts with sha256 and',
    'sizeBytes; see docs/release-manifest.example.json) and publishes the release with all its',
    'artifacts in one transaction. It is on /download, /api/releases/latest and the feed at once.',
    'Publishing the same manifest again changes nothing and succeeds. A published version never',
    'changes: a manifest that differs from it is refused (exit code 1); publish a new version.',
  ].join('\n'),
  arguments: [{ name: 'manifest.json', description: 'Path to the release manifest (JSON)' }],
  options: {
    'dry-run': {
      type: 'boolean',
      description: 'Validate and report what would happen; write nothing',
    },
  },
  async run(context, { args, options }) {
    const file = context.resolvePath(args[0] ?? '');
    const parsed = parseReleaseManifest(await readManifest(file));
    if (!parsed.ok) {
      throw new AdminError(
        [`The manifest ${file} is not valid:`, ...parsed.errors.map((e) => `  - ${e}`)].join('\n'),
      );
    }
    const { release } = parsed;
    const db = await context.database();
    const label = `${release.version} (${release.releaseDate}, ${release.artifacts.length} artifacts)`;

    if (options['dry-run'] === true) {
      const current = await createReleaseRepository(db).findByVersion(release.version);
      if (!current) context.io.out(`Dry run: would publish ${label}.`);
      else {
        const differences = releaseDifferences(current, release);
        if (differences.length > 0) throw refusal(release.version, differences);
        context.io.out(`Dry run: ${release.version} is already published exactly like this.`);
      }
      return EXIT_OK;
    }

    const result = await publishRelease(db, release);
    if (result.outcome === 'conflict') throw refusal(result.version, result.differences);
    if (result.outcome === 'unchanged') {
      context.io.out(`${release.version} is already published exactly like this; nothing changed.`);
      return EXIT_OK;
    }
    context.io.out(`Published ${label}.`);
    const latest = pickLatestRelease(
      await listReleases(createReleaseRepository(db), context.env.DOWNLOAD_BASE_URL),
    );
    context.io.out(
      latest?.version === release.version
        ? `${release.version} is now the latest release on /download and /api/releases/latest.`
        : `The latest stable release stays ${latest?.version ?? 'unset'}${release.prerelease ? ' (this is a pre-release)' : ''}.`,
    );
    return EXIT_OK;
  },
};

function refusal(version: string, differences: string[]): AdminError {
  return new AdminError(
    [
      `Refused: ${version} is already published, and a published version never changes.`,
      'The manifest differs from it in:',
      ...differences.map((line) => `  - ${line}`),
      'Publish the changes under a new version instead.',
    ].join('\n'),
  );
}

const list: AdminCommand = {
  name: 'releases list',
  summary: 'List published releases, newest first',
  options: { json: { type: 'boolean', description: 'Print JSON, as GET /api/releases answers' } },
  async run(context, { options }) {
    const releases = await listReleases(
      createReleaseRepository(await context.database()),
      context.env.DOWNLOAD_BASE_URL,
    );
    if (options.json === true) {
      context.io.out(JSON.stringify({ releases }, null, 2));
      return EXIT_OK;
    }
    if (releases.length === 0) {
      context.io.out('No releases published.');
      return EXIT_OK;
    }
    const latest = pickLatestRelease(releases)?.version;
    const rows = releases.map((release) => [
      release.version,
      release.releaseDate,
      release.prerelease ? 'pre-release' : 'stable',
      String(release.artifacts.length),
      release.version === latest ? 'latest' : '',
    ]);
    const header = ['VERSION', 'DATE', 'CHANNEL', 'ARTIFACTS', ''];
    printTable(context, header, rows);
    return EXIT_OK;
  },
};

/** The operator commands of the release catalog (registered in server/admin/commands.ts). */
export const releaseAdminCommands: readonly AdminCommand[] = [publish, list];
