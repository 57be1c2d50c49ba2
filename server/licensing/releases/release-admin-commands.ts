import { printTable } from '#server/platform/commands/command-io.ts';
import {
  AdminError,
  EXIT_OK,
  type AdminCommand,
  type AdminContext,
  type CommandSettings,
} from '#server/platform/commands/command.ts';
import { pickLatestRelease } from '#shared/downloads/versions.ts';
import type { Database } from '#server/platform/db/database.ts';
import { listReleases, releaseReading, type ReleaseReading } from './list-releases.ts';
import { parseReleaseManifest } from './release-manifest.ts';
import { publishRelease, releaseDifferences, sbomDifference } from './publish-release.ts';
import { createReleaseRepository, type ReleaseSbom } from './release-repository.ts';
import { loadReleaseSigningKey, type ReleaseSigningKey } from './release-signing-key.ts';
import { MAX_SBOM_BYTES, validateSbom } from './validate-sbom.ts';

/** What the release commands read of the environment. */
interface ReleaseCommandSettings extends CommandSettings {
  DOWNLOAD_BASE_URL: string;
  PUBLIC_BASE_URL: string;
  RELEASE_SIGNING_KEY?: string;
}

const MAX_MANIFEST_BYTES = 1_000_000;

/** A file the operator named, read whole unless it is larger than `maxBytes`. */
async function readInputFile(
  context: AdminContext<ReleaseCommandSettings>,
  file: string,
  kind: string,
  maxBytes: number,
): Promise<Buffer> {
  const reading = await context.files.read(file, maxBytes);
  if (reading.ok) return reading.bytes;
  if (reading.reason === 'not-a-file') throw new AdminError(`${file} is not a file.`);
  if (reading.reason === 'too-large') {
    throw new AdminError(
      `${file} is ${reading.size} bytes; ${kind} is at most ${maxBytes / 1_000_000 >= 1 && maxBytes % 1_000_000 === 0 ? `${maxBytes / 1_000_000} MB` : `${maxBytes} bytes`}.`,
    );
  }
  throw new AdminError(`Cannot read ${file}: ${reading.message}`);
}

async function readManifest(
  context: AdminContext<ReleaseCommandSettings>,
  file: string,
): Promise<string> {
  return (await readInputFile(context, file, 'a manifest', MAX_MANIFEST_BYTES)).toString('utf8');
}

/** How the admin commands read the catalog: like the server, signing any unsigned release. */
function adminReading(
  context: AdminContext<ReleaseCommandSettings>,
  db: Database,
  signingKey: ReleaseSigningKey,
): ReleaseReading {
  return releaseReading({
    db,
    downloadBaseUrl: context.env.DOWNLOAD_BASE_URL,
    publicBaseUrl: context.env.PUBLIC_BASE_URL,
    signingKey,
    clock: () => context.now(),
  });
}

const publish: AdminCommand<ReleaseCommandSettings> = {
  name: 'releases publish',
  summary: 'Publish a release from a manifest file',
  details: [
    'Validates the manifest (version, releaseDate, prerelease, notes, artifacts with sha256 and',
    'sizeBytes; see docs/release-manifest.example.json) and publishes the release with all its',
    'artifacts in one transaction. It is on /download, /api/releases/latest and the feed at once.',
    'Publishing the same manifest again changes nothing and succeeds. A published version never',
    'changes: a manifest that differs from it is refused (exit code 1); publish a new version.',
    '',
    'The SHA256SUMS of the artifacts is signed with the release-signing key (RELEASE_SIGNING_KEY,',
    "or the one kept in the database; run this with the server's environment). --sbom attaches a",
    'CycloneDX JSON SBOM (at most 5 MB, validated against the CycloneDX schema; see',
    'docs/sbom.example.cdx.json). A release without an SBOM may receive one later by publishing',
    'the same manifest with --sbom; a different SBOM for a release that has one is refused.',
  ].join('\n'),
  arguments: [{ name: 'manifest.json', description: 'Path to the release manifest (JSON)' }],
  options: {
    'dry-run': {
      type: 'boolean',
      description: 'Validate and report what would happen; write nothing',
    },
    sbom: {
      type: 'string',
      description: 'A CycloneDX SBOM (JSON) of the release to publish with it',
    },
  },
  async run(context, { args, options }) {
    const file = context.resolvePath(args[0] ?? '');
    const parsed = parseReleaseManifest(await readManifest(context, file));
    if (!parsed.ok) {
      throw new AdminError(
        [`The manifest ${file} is not valid:`, ...parsed.errors.map((e) => `  - ${e}`)].join('\n'),
      );
    }
    const { release } = parsed;
    let sbom: ReleaseSbom | undefined;
    if (typeof options.sbom === 'string') {
      const sbomFile = context.resolvePath(options.sbom);
      const checked = await validateSbom(
        await readInputFile(context, sbomFile, 'an SBOM', MAX_SBOM_BYTES),
        release,
      );
      if (!checked.ok) {
        throw new AdminError(
          [`The SBOM ${sbomFile} is not valid:`, ...checked.errors.map((e) => `  - ${e}`)].join(
            '\n',
          ),
        );
      }
      sbom = checked.sbom;
      context.io.out(
        `SBOM: CycloneDX ${checked.specVersion}, ${checked.components} components, valid.`,
      );
    }
    const db = await context.database();
    const label = `${release.version} (${release.releaseDate}, ${release.artifacts.length} artifacts${sbom ? ', with SBOM' : ''})`;

    if (options['dry-run'] === true) {
      const current = await createReleaseRepository(db).findByVersion(release.version);
      if (!current) context.io.out(`Dry run: would publish ${label}.`);
      else {
        const differences = releaseDifferences(current, release);
        const sbomChange = sbomDifference(current.sbomSha256, sbom);
        if (sbomChange !== 'none' && sbomChange !== 'add') differences.push(sbomChange);
        if (differences.length > 0) throw refusal(release.version, differences);
        context.io.out(
          sbomChange === 'add'
            ? `Dry run: would add the SBOM to ${release.version}, which has none.`
            : `Dry run: ${release.version} is already published exactly like this.`,
        );
      }
      return EXIT_OK;
    }

    const signingKey = await loadReleaseSigningKey(
      db,
      context.env.RELEASE_SIGNING_KEY,
      context.now(),
    );
    const result = await publishRelease(db, release, { signingKey, now: context.now(), sbom });
    if (result.outcome === 'conflict') throw refusal(result.version, result.differences);
    if (result.outcome === 'unchanged') {
      context.io.out(`${release.version} is already published exactly like this; nothing changed.`);
      return EXIT_OK;
    }
    if (result.outcome === 'sbom-added') {
      context.io.out(`Added the SBOM to ${release.version}; nothing else changed.`);
      return EXIT_OK;
    }
    context.io.out(`Published ${label}.`);
    context.io.out(
      `Signed its SHA256SUMS with release-signing key ${result.keyId} (fingerprint ${signingKey.fingerprint}).`,
    );
    const latest = pickLatestRelease(
      await listReleases(createReleaseRepository(db), adminReading(context, db, signingKey)),
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

const list: AdminCommand<ReleaseCommandSettings> = {
  name: 'releases list',
  summary: 'List published releases, newest first',
  options: { json: { type: 'boolean', description: 'Print JSON, as GET /api/releases answers' } },
  async run(context, { options }) {
    const db = await context.database();
    const signingKey = await loadReleaseSigningKey(
      db,
      context.env.RELEASE_SIGNING_KEY,
      context.now(),
    );
    const releases = await listReleases(
      createReleaseRepository(db),
      adminReading(context, db, signingKey),
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

/** The operator commands of the release catalog (listed by the domain's manifest, decision 169). */
export const releaseAdminCommands: readonly AdminCommand<ReleaseCommandSettings>[] = [
  publish,
  list,
];
