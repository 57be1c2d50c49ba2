import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.ts';
import { releaseArtifacts, releases } from '../db/schema.ts';
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

export interface StoredRelease extends NewRelease {
  publishedAt: Date;
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

function assemble(rows: ReleaseRow[], artifactRows: ArtifactRow[]): StoredRelease[] {
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

  return {
    /** Every release with its artifacts, in publication order (callers sort by version). */
    async listAll(): Promise<StoredRelease[]> {
      const rows = await db.select().from(releases).orderBy(asc(releases.id));
      const artifactRows = await loadArtifacts(rows.map((row) => row.id));
      return assemble(rows, artifactRows);
    },

    async findByVersion(version: string): Promise<StoredRelease | undefined> {
      const rows = await db.select().from(releases).where(eq(releases.version, version));
      const artifactRows = await loadArtifacts(rows.map((row) => row.id));
      return assemble(rows, artifactRows)[0];
    },

    /**
     * Inserts the release and its artifacts; returns false, writing nothing, when the version is
     * already there (the unique constraint decides, so concurrent publishers cannot both win).
     */
    async insert(release: NewRelease): Promise<boolean> {
      const [row] = await db
        .insert(releases)
        .values({
          version: release.version,
          releaseDate: release.releaseDate,
          prerelease: release.prerelease,
          notes: release.notes,
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

    /** Tells every instance the catalog changed, when (and only if) the transaction commits. */
    async announceChange(version: string): Promise<void> {
      await db.execute(sql`select pg_notify(${RELEASE_CATALOG_CHANNEL}, ${version})`);
    },
  };
}

export type ReleaseRepository = ReturnType<typeof createReleaseRepository>;
