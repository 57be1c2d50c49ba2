/**
 * The release catalog's vocabulary (docs/product-rules.md#data): the operating systems,
 * architectures and formats an artifact can have, and what the visitor's browser may be.
 */
export const operatingSystems = ['Windows', 'macOS', 'Linux'] as const;
export type OperatingSystem = (typeof operatingSystems)[number];

export const artifactArchitectures = ['x86', 'x64', 'arm64', 'universal'] as const;
export type ArtifactArchitecture = (typeof artifactArchitectures)[number];

export const artifactFormats = ['msi', 'zip', 'pkg'] as const;
export type ArtifactFormat = (typeof artifactFormats)[number];

/** The operating systems the download page tells apart (more than it offers builds for). */
export const detectedOperatingSystems = [
  'Windows',
  'macOS',
  'Linux',
  'ChromeOS',
  'Android',
  'iOS',
  'unknown',
] as const;
export type DetectedOperatingSystem = (typeof detectedOperatingSystems)[number];

/** CPU architectures by the names the download rules use (docs/product-rules.md#constants). */
export const cpuArchitectures = [
  'amd64',
  'ia32',
  'arm64',
  'arm',
  'ia64',
  'mips64',
  'mips',
] as const;
export type CpuArchitecture = (typeof cpuArchitectures)[number];
