import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '#server/platform/db/database.ts';
import { releaseArtifacts, releaseSboms, releases } from '#server/platform/db/schema.ts';
import type {
  ArtifactArchitecture,
  ArtifactFormat,
  OperatingSystem,
} from '#shared/downloads/catalog.ts';

export interface StoredArtifact {
  operatingSystem: OperatingSystem;
  architecture: ArtifactArchitecture;
  format: ArtifactFormat;
  description: string;
  fileName: string;
  sha256: string;
  sizeBytes: number;
}

export interface NewRelease {
  version: string;
  releaseDate: string;
  prerelease: boolean;
  notes: string[];
  artifacts: StoredArtifact[];
}

/** The `NOTIFY` channel a publish announces itself on; caches of pages that show releases listen. */
export const RELEASE_CATALOG_CHANNEL = 'release_catalog';

/** The detached signature of a release's SHA256SUMS and the key that made it (decision 140). */
export interface ReleaseSignature {
  keyId: string;
  /** Base64 of the raw 64-byte Ed25519 signature. */
  value: string;
  signedAt: Date;
}

/** A CycloneDX SBOM as published: its bytes (as text) and their SHA-256 (decision 141). */
export interface ReleaseSbom {
  document: string;
  sha256: string;
}

export interface StoredRelease extends NewRelease {
  publishedAt: Date;
  /** Null only for a release published before signing existed, until an instance signs it. */
  signature: ReleaseSignature | null;
  /** SHA-256 of the SBOM's bytes, or null when the release has none. */
  sbomSha256: string | null;
}

type ReleaseRow = typeof releases.$inferSelect;
type ArtifactRow = typeof releaseArtifacts.$inferSelect;

function toStoredArtifact(row: ArtifactRow): StoredArtifact {
  return {
    operatingSystem: row.operatingSystem,
    architecture: row.architecture,
    format: row.format,
    description: row.description,
    fileName: row.fileName,
    sha256: row.sha256,
    sizeBytes: row.sizeBytes,
  };
}

function signatureOf(row: ReleaseRow): ReleaseSignature | null {
  return row.sha256sumsSignature && row.signingKeyId && row.signedAt
    ? { keyId: row.signingKeyId, value: row.sha256sumsSignature, signedAt: row.signedAt }
    : null;
}

function assemble(
  rows: ReleaseRow[],
  artifactRows: ArtifactRow[],
  sbomRows: Array<{ releaseId: number; sha256: string }>,
): StoredRelease[] {
  const sbomOf = new Map(sbomRows.map((row) => [row.releaseId, row.sha256]));
  const byRelease = new Map<number, StoredArtifact[]>();
  for (const row of artifactRows) {
    const list = byRelease.get(row.releaseId) ?? [];
    list.push(toStoredArtifact(row));
    byRelease.set(row.releaseId, list);
  }
  return rows.map((row) => ({
    version: row.version,
    releaseDate: row.releaseDate,
    prerelease: row.prerelease,
    notes: row.notes,
    publishedAt: row.publishedAt,
    artifacts: byRelease.get(row.id) ?? [],
    signature: signatureOf(row),
    sbomSha256: sbomOf.get(row.id) ?? null,
  }));
}

/** Reads and writes the release catalog through one executor (the database or a transaction). */
export function createReleaseRepository(db: Executor) {
  async function loadArtifacts(releaseIds: number[]): Promise<ArtifactRow[]> {
    if (releaseIds.length === 0) return [];
    return db
      .select()
      .from(releaseArtifacts)
      .where(inArray(releaseArtifacts.releaseId, releaseIds))
      .orderBy(asc(releaseArtifacts.id));
  }

  async function loadSbomHashes(releaseIds: number[]) {
    if (releaseIds.length === 0) return [];
    return db
      .select({ releaseId: releaseSboms.releaseId, sha256: releaseSboms.sha256 })
      .from(releaseSboms)
      .where(inArray(releaseSboms.releaseId, releaseIds));
  }

  async function load(rows: ReleaseRow[]): Promise<StoredRelease[]> {
    const ids = rows.map((row) => row.id);
    const [artifactRows, sbomRows] = await Promise.all([loadArtifacts(ids), loadSbomHashes(ids)]);
    return assemble(rows, artifactRows, sbomRows);
  }

  return {
    /** Every release with its artifacts, in publication order (callers sort by version). */
    async listAll(): Promise<StoredRelease[]> {
      return load(await db.select().from(releases).orderBy(asc(releases.id)));
    },

    async findByVersion(version: string): Promise<StoredRelease | undefined> {
      return (await load(await db.select().from(releases).where(eq(releases.version, version))))[0];
    },

    /**
     * Inserts the release and its artifacts; returns false, writing nothing, when the version is
     * already there (the unique constraint decides, so concurrent publishers cannot both win).
     */
    async insert(release: NewRelease, signature: ReleaseSignature): Promise<boolean> {
      const [row] = await db
        .insert(releases)
        .values({
          version: release.version,
          releaseDate: release.releaseDate,
          prerelease: release.prerelease,
          notes: release.notes,
          sha256sumsSignature: signature.value,
          signingKeyId: signature.keyId,
          signedAt: signature.signedAt,
        })
        .onConflictDoNothing({ target: releases.version })
        .returning({ id: releases.id });
      if (!row) return false;
      if (release.artifacts.length > 0) {
        await db
          .insert(releaseArtifacts)
          .values(release.artifacts.map((artifact) => ({ releaseId: row.id, ...artifact })));
      }
      return true;
    },

    /**
     * Stores the signature of a release that has none; false when it already had one (another
     * instance signed first: the signature is written once, whoever wins).
     */
    async storeSignature(version: string, signature: ReleaseSignature): Promise<boolean> {
      const rows = await db
        .update(releases)
        .set({
          sha256sumsSignature: signature.value,
          signingKeyId: signature.keyId,
          signedAt: signature.signedAt,
        })
        .where(and(eq(releases.version, version), isNull(releases.sha256sumsSignature)))
        .returning({ id: releases.id });
      return rows.length > 0;
    },

    /** The release's SBOM document, or undefined when the version or its SBOM does not exist. */
    async findSbom(version: string): Promise<ReleaseSbom | undefined> {
      const [row] = await db
        .select({ document: releaseSboms.document, sha256: releaseSboms.sha256 })
        .from(releaseSboms)
        .innerJoin(releases, eq(releases.id, releaseSboms.releaseId))
        .where(eq(releases.version, version));
      return row;
    },

    /** Attaches an SBOM to a release that has none; false when it has one already (or no release). */
    async attachSbom(version: string, sbom: ReleaseSbom): Promise<boolean> {
      const [release] = await db
        .select({ id: releases.id })
        .from(releases)
        .where(eq(releases.version, version));
      if (!release) return false;
      const rows = await db
        .insert(releaseSboms)
        .values({ releaseId: release.id, document: sbom.document, sha256: sbom.sha256 })
        .onConflictDoNothing({ target: releaseSboms.releaseId })
        .returning({ releaseId: releaseSboms.releaseId });
      return rows.length > 0;
    },

    /** Tells every instance the catalog changed, when (and only if) the transaction commits. */
    async announceChange(version: string): Promise<void> {
      await db.execute(sql`select pg_notify(${RELEASE_CATALOG_CHANNEL}, ${version})`);
    },
  };
}

export type ReleaseRepository = ReturnType<typeof createReleaseRepository>;
