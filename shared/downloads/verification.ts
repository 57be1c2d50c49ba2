/**
 * Downloads a security team can verify (decisions 140 and 141): the files published beside each
 * release, where they live, and the commands the download page shows — one source for the page,
 * the server and the test that runs those very commands.
 */

/** The GNU checksum list of a release's files (`sha256sum -c` reads it). */
export const SHA256SUMS_FILE = 'SHA256SUMS';
/** The detached Ed25519 signature of SHA256SUMS: the raw 64 bytes. */
export const SIGNATURE_FILE = 'SHA256SUMS.sig';
/** The release's CycloneDX SBOM (JSON), when one was published. */
export const SBOM_FILE = 'sbom.cdx.json';
/** The name the page tells visitors to save the public key under. */
export const SIGNING_KEY_FILE = 'release-signing-key.pem';

/** The public key releases are signed with now, at a stable address. */
export const CURRENT_SIGNING_KEY_PATH = `/downloads/${SIGNING_KEY_FILE}`;

/** A key id: the first 16 hex digits of the key's fingerprint. */
export const SIGNING_KEY_ID_PATTERN = /^[0-9a-f]{16}$/;

export type ReleaseFile = typeof SHA256SUMS_FILE | typeof SIGNATURE_FILE | typeof SBOM_FILE;

/** `/downloads/3.2.2/SHA256SUMS` and its siblings. */
export function releaseFilePath(version: string, file: ReleaseFile): string {
  return `/downloads/${encodeURIComponent(version)}/${file}`;
}

/** Every key that ever signed a release stays here, by its id. */
export function signingKeyPath(keyId: string): string {
  return `/downloads/release-signing-keys/${keyId}.pem`;
}

/** The key id in a `signingKeyUrl` (or path), or undefined when it names no key. */
export function signingKeyIdOf(url: string): string | undefined {
  const id = /\/downloads\/release-signing-keys\/([0-9a-f]{16})\.pem$/.exec(url)?.[1];
  return id && SIGNING_KEY_ID_PATTERN.test(id) ? id : undefined;
}

/** A release-signing key as the download page describes it. */
export interface SigningKeyDescription {
  keyId: string;
  /** SHA-256 (hex) of the public key's DER, as `openssl pkey -outform DER | sha256sum` prints it. */
  fingerprint: string;
  /** Whether new releases are signed with it (then it is also at the stable address). */
  current: boolean;
}

/** The four links `/api/releases`, the feed and the page give for a release. */
export interface ReleaseVerificationLinks {
  /** Absolute URL of the release's SHA256SUMS. */
  sha256SumsUrl: string;
  /** Absolute URL of the detached signature of SHA256SUMS. */
  signatureUrl: string;
  /** Absolute URL of the CycloneDX SBOM, or null when the release has none. */
  sbomUrl: string | null;
  /** Absolute URL of the public key (PEM) that signed this release's SHA256SUMS. */
  signingKeyUrl: string;
}

export function releaseVerificationLinks(
  publicBaseUrl: string,
  release: { version: string; signingKeyId: string; hasSbom: boolean },
): ReleaseVerificationLinks {
  const base = publicBaseUrl.replace(/\/+$/, '');
  return {
    sha256SumsUrl: base + releaseFilePath(release.version, SHA256SUMS_FILE),
    signatureUrl: base + releaseFilePath(release.version, SIGNATURE_FILE),
    sbomUrl: release.hasSbom ? base + releaseFilePath(release.version, SBOM_FILE) : null,
    signingKeyUrl: base + signingKeyPath(release.signingKeyId),
  };
}

/**
 * The SHA256SUMS text: one `<sha256>  <file name>` line per file (GNU text mode), sorted by file
 * name byte by byte, ending in a newline. Its bytes are what the signature covers, so this is the
 * only place they are built.
 */
export function buildSha256Sums(
  files: ReadonlyArray<{ fileName: string; sha256: string }>,
): string {
  const lines = files
    .map((file) => {
      if (!/^[0-9a-f]{64}$/.test(file.sha256)) {
        throw new Error(`${file.fileName}: the SHA-256 must be 64 lower-case hex digits`);
      }
      if (!/^[\w.+-]+$/.test(file.fileName)) {
        throw new Error(`${file.fileName}: not a plain file name`);
      }
      return { name: file.fileName, line: `${file.sha256}  ${file.fileName}\n` };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return lines.map((entry) => entry.line).join('');
}

/** One copy-ready command of the page's "Verify your download" section. */
export interface VerifyCommand {
  id: 'linux' | 'macos' | 'windows' | 'fingerprint-linux' | 'fingerprint-macos' | 'signature';
  /** What the command's copy button names. */
  label: string;
  language: 'sh' | 'powershell';
  command: string;
}

/** Quotes a value for a PowerShell single-quoted string. */
function powershellQuoted(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The commands of the "Verify your download" section, for the files a visitor most likely has.
 * `windowsFile` and `windowsSha256` fill in the PowerShell comparison (Windows has no `-c`).
 */
export function verifyCommands(options: {
  windowsFile: string;
  windowsSha256: string;
}): VerifyCommand[] {
  const { windowsFile, windowsSha256 } = options;
  return [
    {
      id: 'linux',
      label: 'Linux checksum check',
      language: 'sh',
      command: `sha256sum -c --ignore-missing ${SHA256SUMS_FILE}`,
    },
    {
      id: 'macos',
      label: 'macOS checksum check',
      language: 'sh',
      command: `shasum -a 256 -c --ignore-missing ${SHA256SUMS_FILE}`,
    },
    {
      id: 'windows',
      label: 'PowerShell checksum check',
      language: 'powershell',
      command:
        `if ((Get-FileHash ${powershellQuoted(`.\\${windowsFile}`)} -Algorithm SHA256).Hash -eq ` +
        `${powershellQuoted(windowsSha256)}) { 'OK' } else { 'FAILED' }`,
    },
    {
      id: 'fingerprint-linux',
      label: 'key fingerprint command (Linux)',
      language: 'sh',
      command: `openssl pkey -pubin -in ${SIGNING_KEY_FILE} -outform DER | sha256sum`,
    },
    {
      id: 'fingerprint-macos',
      label: 'key fingerprint command (macOS)',
      language: 'sh',
      command: `openssl pkey -pubin -in ${SIGNING_KEY_FILE} -outform DER | shasum -a 256`,
    },
    {
      id: 'signature',
      label: 'signature check',
      language: 'sh',
      command: `openssl pkeyutl -verify -pubin -inkey ${SIGNING_KEY_FILE} -rawin -in ${SHA256SUMS_FILE} -sigfile ${SIGNATURE_FILE}`,
    },
  ];
}

/** A fingerprint in groups of four hex digits, so a person can compare it piece by piece. */
export function groupedFingerprint(fingerprint: string): string {
  return fingerprint.replace(/(.{4})(?!$)/g, '$1 ');
}
