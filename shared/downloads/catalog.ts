import type {
  DownloadArtifact,
  DownloadSelection,
  Release,
  ReleaseArtifact,
} from '../contracts/releases.ts';

/**
 * The release catalog's vocabulary (docs/product-rules.md#data): the operating systems, architectures and formats an
 * artifact can have, and the shapes releases take in the API, the page and the feed.
 */
import type { ArtifactArchitecture, ArtifactFormat, OperatingSystem } from './vocabulary.ts';

export {
  artifactArchitectures,
  artifactFormats,
  operatingSystems,
  type ArtifactArchitecture,
  type ArtifactFormat,
  type OperatingSystem,
} from './vocabulary.ts';
// The shapes releases take in the API, the page and the feed: the answers' own schemas
// (shared/contracts/releases.ts), so what the API documents is what the code builds.
export type { DownloadArtifact, DownloadSelection, Release, ReleaseArtifact };

export function toDownloadArtifact(release: Release, artifact: ReleaseArtifact): DownloadArtifact {
  return {
    description: artifact.description,
    version: { label: release.version, releaseDate: release.releaseDate },
    operatingSystem: artifact.operatingSystem,
    architecture: artifact.architecture,
    format: artifact.format,
    downloadUri: artifact.downloadUri,
    fileName: artifact.fileName,
    sha256: artifact.sha256,
    sizeBytes: artifact.sizeBytes,
  };
}

export function sameSelection(a: DownloadSelection, b: DownloadSelection): boolean {
  return (
    a.operatingSystem === b.operatingSystem &&
    a.architecture === b.architecture &&
    a.format === b.format
  );
}

export function findArtifact(
  release: Pick<Release, 'artifacts'>,
  selection: DownloadSelection,
): ReleaseArtifact | undefined {
  return release.artifacts.find((artifact) => sameSelection(artifact, selection));
}

/** `Windows | x64 | msi`: the analytics label of docs/product-rules.md#constants and a compact human label. */
export function selectionLabel(selection: DownloadSelection): string {
  return `${selection.operatingSystem} | ${selection.architecture} | ${selection.format}`;
}

const architectureOrder: Record<ArtifactArchitecture, number> = {
  universal: 0,
  x64: 1,
  arm64: 2,
  x86: 3,
};
const formatOrder: Record<ArtifactFormat, number> = { msi: 0, pkg: 0, zip: 1 };
const osOrder: Record<OperatingSystem, number> = { Windows: 0, macOS: 1, Linux: 2 };

/** Display order: by OS tab, installers before archives, universal and x64 before the rest. */
export function compareSelections(a: DownloadSelection, b: DownloadSelection): number {
  return (
    osOrder[a.operatingSystem] - osOrder[b.operatingSystem] ||
    formatOrder[a.format] - formatOrder[b.format] ||
    architectureOrder[a.architecture] - architectureOrder[b.architecture]
  );
}

/**
 * Combinations that can exist: .msi is Windows-only, .pkg macOS-only, and only macOS has
 * universal (fat) binaries. Everything ships as .zip too.
 */
export function isPossibleSelection(selection: DownloadSelection): boolean {
  if (selection.format === 'msi' && selection.operatingSystem !== 'Windows') return false;
  if (selection.format === 'pkg' && selection.operatingSystem !== 'macOS') return false;
  if (selection.architecture === 'universal' && selection.operatingSystem !== 'macOS') return false;
  return true;
}

const formatNames: Record<ArtifactFormat, string> = {
  msi: 'installer (.msi)',
  pkg: 'installer (.pkg)',
  zip: 'zip archive',
};

function architectureText(selection: DownloadSelection): string {
  switch (selection.operatingSystem) {
    case 'Windows':
      return selection.architecture === 'x86'
        ? 'for 32-bit Windows'
        : selection.architecture === 'x64'
          ? 'for 64-bit Windows'
          : `for Windows on ${selection.architecture}`;
    case 'macOS':
      return selection.architecture === 'universal'
        ? 'universal for Apple Silicon and Intel Macs'
        : selection.architecture === 'arm64'
          ? 'for Apple Silicon Macs'
          : 'for Intel Macs';
    case 'Linux':
      return `for ${selection.architecture}`;
  }
}

/**
 * The standard description of an artifact, naming its OS and format (e.g. "Windows installer
 * (.msi) for 64-bit Windows"); a manifest may give its own.
 */
export function defaultArtifactDescription(selection: DownloadSelection): string {
  const format = formatNames[selection.format];
  const arch = architectureText(selection);
  const separator = selection.architecture === 'universal' ? ', ' : ' ';
  return `${selection.operatingSystem} ${format}${separator}${arch}`;
}

const osAliases: Record<string, OperatingSystem> = {
  windows: 'Windows',
  win: 'Windows',
  macos: 'macOS',
  osx: 'macOS',
  mac: 'macOS',
  linux: 'Linux',
};

/** An OS as URLs and scripts write it (`Windows`, `win`, `macOS`, `osx`, `linux`, any case). */
export function parseOperatingSystem(text: string): OperatingSystem | null {
  return osAliases[text.toLowerCase()] ?? null;
}

export const operatingSystemNames: readonly string[] = Object.keys(osAliases);
