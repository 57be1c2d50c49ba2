import { z } from 'zod';
import {
  artifactArchitectures,
  artifactFormats,
  defaultArtifactDescription,
  isPossibleSelection,
  operatingSystems,
  selectionLabel,
} from '#shared/downloads/catalog.ts';
import { artifactFileName } from '#shared/downloads/file-names.ts';
import { isPrereleaseVersion, isVersion } from '#shared/downloads/versions.ts';
import type { NewRelease } from './release-repository.ts';

const artifactSchema = z.strictObject({
  operatingSystem: z.enum(operatingSystems),
  architecture: z.enum(artifactArchitectures),
  format: z.enum(artifactFormats),
  description: z.string().trim().min(1).max(200).optional(),
  /** Optional cross-check: the release pipeline's own idea of the file name. */
  fileName: z.string().min(1).optional(),
  sha256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (a SHA-256 digest)')
    .transform((value) => value.toLowerCase()),
  sizeBytes: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/**
 * A release manifest, the input of `npm run admin -- releases publish` (example:
 * docs/release-manifest.example.json).
 */
export const releaseManifestSchema = z
  .strictObject({
    version: z
      .string()
      .refine(
        isVersion,
        'must be a semantic version such as 3.3.0 or 3.4.0-beta.1 (no build metadata)',
      ),
    releaseDate: z.iso.date('must be a date in the form YYYY-MM-DD'),
    prerelease: z.boolean().optional(),
    notes: z.array(z.string().trim().min(1).max(2000)).min(1, 'needs at least one change-log item'),
    artifacts: z.array(artifactSchema).min(1, 'needs at least one artifact'),
  })
  .superRefine((manifest, ctx) => {
    if (manifest.prerelease === false && isPrereleaseVersion(manifest.version)) {
      ctx.addIssue({
        code: 'custom',
        path: ['prerelease'],
        message: `must be true (or left out) for the pre-release version ${manifest.version}`,
      });
    }
    const seen = new Set<string>();
    manifest.artifacts.forEach((artifact, index) => {
      const label = selectionLabel(artifact);
      if (!isPossibleSelection(artifact)) {
        ctx.addIssue({
          code: 'custom',
          path: ['artifacts', index],
          message: `${label} does not exist: .msi is Windows-only, .pkg macOS-only, universal macOS-only`,
        });
      }
      if (seen.has(label)) {
        ctx.addIssue({
          code: 'custom',
          path: ['artifacts', index],
          message: `${label} is listed twice`,
        });
      }
      seen.add(label);
      const expected = artifactFileName(manifest.version, artifact);
      if (artifact.fileName !== undefined && artifact.fileName !== expected) {
        ctx.addIssue({
          code: 'custom',
          path: ['artifacts', index, 'fileName'],
          message: `must be ${expected} (CLI name, version, OS key, architecture and extension)`,
        });
      }
    });
  });

export type ReleaseManifest = z.output<typeof releaseManifestSchema>;

export type ManifestParseResult =
  { ok: true; release: NewRelease } | { ok: false; errors: string[] };

function describePath(path: ReadonlyArray<PropertyKey>): string {
  return path.length === 0
    ? 'manifest'
    : path
        .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
        .join('')
        .replace(/^\./, '');
}

/** The release a manifest describes, with the file names and default descriptions filled in. */
export function releaseFromManifest(manifest: ReleaseManifest): NewRelease {
  return {
    version: manifest.version,
    releaseDate: manifest.releaseDate,
    prerelease: manifest.prerelease ?? isPrereleaseVersion(manifest.version),
    notes: manifest.notes,
    artifacts: manifest.artifacts.map((artifact) => {
      const selection = {
        operatingSystem: artifact.operatingSystem,
        architecture: artifact.architecture,
        format: artifact.format,
      };
      return {
        ...selection,
        description: artifact.description ?? defaultArtifactDescription(selection),
        fileName: artifactFileName(manifest.version, selection),
        sha256: artifact.sha256,
        sizeBytes: artifact.sizeBytes,
      };
    }),
  };
}

/** Validates manifest JSON text; errors come one per line, each naming the offending field. */
export function parseReleaseManifest(text: string): ManifestParseResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      errors: [`not valid JSON: ${error instanceof Error ? error.message : String(error)}`],
    };
  }
  const result = releaseManifestSchema.safeParse(json);
  if (!result.success) {
    return {
      ok: false,
      errors: result.error.issues.map((issue) => `${describePath(issue.path)}: ${issue.message}`),
    };
  }
  return { ok: true, release: releaseFromManifest(result.data) };
}
