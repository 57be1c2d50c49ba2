import {
  bigint,
  boolean,
  date,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import type {
  ArtifactArchitecture,
  ArtifactFormat,
  OperatingSystem,
} from '#shared/downloads/catalog.ts';
import { signingKeys } from './signing-keys.ts';

/**
 * Published CLI versions (migrations 0100, 0101, 0102, 0800). Versions are immutable once published;
 * the signature of their SHA256SUMS is written once (decision 140).
 */
export const releases = pgTable('releases', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  version: text('version').notNull().unique(),
  releaseDate: date('release_date', { mode: 'string' }).notNull(),
  prerelease: boolean('prerelease').notNull().default(false),
  notes: text('notes').array().notNull().default([]),
  publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  /** Base64 of the raw 64-byte Ed25519 signature of the release's SHA256SUMS; null until signed. */
  sha256sumsSignature: text('sha256sums_signature'),
  signingKeyId: text('signing_key_id').references(() => signingKeys.keyId),
  signedAt: timestamp('signed_at', { withTimezone: true }),
});

/** A release's CycloneDX SBOM (JSON), bytes as published; at most one, never replaced (decision 141). */
export const releaseSboms = pgTable('release_sboms', {
  releaseId: integer('release_id')
    .primaryKey()
    .references(() => releases.id, { onDelete: 'cascade' }),
  document: text('document').notNull(),
  sha256: text('sha256').notNull(),
  addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The downloadable files of a release; the link is built at read time from DOWNLOAD_BASE_URL. */
export const releaseArtifacts = pgTable(
  'release_artifacts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    releaseId: integer('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    operatingSystem: text('operating_system').$type<OperatingSystem>().notNull(),
    architecture: text('architecture').$type<ArtifactArchitecture>().notNull(),
    format: text('format').$type<ArtifactFormat>().notNull(),
    description: text('description').notNull(),
    fileName: text('file_name').notNull().unique(),
    sha256: text('sha256').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
  },
  (table) => [
    unique().on(table.releaseId, table.operatingSystem, table.architecture, table.format),
  ],
);
