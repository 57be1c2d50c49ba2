import { describe, expect, it } from 'vitest';
import {
  buildSha256Sums,
  groupedFingerprint,
  releaseVerificationLinks,
  signingKeyIdOf,
  verifyCommands,
} from './verification.ts';

const sha = (digit: string) => digit.repeat(64);

describe('SHA256SUMS', () => {
  it('has one GNU line per file, sorted by file name byte by byte, ending in a newline', () => {
    const text = buildSha256Sums([
      { fileName: 'orgsmith-3.3.0-win-x64.msi', sha256: sha('c') },
      { fileName: 'orgsmith-3.3.0-linux-arm64.zip', sha256: sha('a') },
      { fileName: 'orgsmith-3.3.0-Linux-x64.zip', sha256: sha('b') },
    ]);
    expect(text).toBe(
      [
        `${sha('b')}  orgsmith-3.3.0-Linux-x64.zip`,
        `${sha('a')}  orgsmith-3.3.0-linux-arm64.zip`,
        `${sha('c')}  orgsmith-3.3.0-win-x64.msi`,
        '',
      ].join('\n'),
    );
  });

  it('refuses what would make a line ambiguous', () => {
    expect(() => buildSha256Sums([{ fileName: 'a b.zip', sha256: sha('a') }])).toThrow(
      /not a plain file name/,
    );
    expect(() => buildSha256Sums([{ fileName: 'a.zip', sha256: sha('A') }])).toThrow(/lower-case/);
    expect(() => buildSha256Sums([{ fileName: 'a\n.zip', sha256: sha('a') }])).toThrow();
  });
});

describe('links and commands', () => {
  it('builds absolute links, with null for a release without an SBOM', () => {
    const links = releaseVerificationLinks('https://orgsmith.io/', {
      version: '3.3.0-beta.1',
      signingKeyId: '0123456789abcdef',
      hasSbom: false,
    });
    expect(links).toEqual({
      sha256SumsUrl: 'https://orgsmith.io/downloads/3.3.0-beta.1/SHA256SUMS',
      signatureUrl: 'https://orgsmith.io/downloads/3.3.0-beta.1/SHA256SUMS.sig',
      sbomUrl: null,
      signingKeyUrl: 'https://orgsmith.io/downloads/release-signing-keys/0123456789abcdef.pem',
    });
    expect(signingKeyIdOf(links.signingKeyUrl)).toBe('0123456789abcdef');
    expect(signingKeyIdOf('https://orgsmith.io/downloads/release-signing-key.pem')).toBeUndefined();
  });

  it('shows the commands the issue asks for, the PowerShell one comparing and printing OK or FAILED', () => {
    const commands = verifyCommands({ windowsFile: "it's.msi", windowsSha256: sha('d') });
    expect(Object.fromEntries(commands.map((c) => [c.id, c.command]))).toEqual({
      linux: 'sha256sum -c --ignore-missing SHA256SUMS',
      macos: 'shasum -a 256 -c --ignore-missing SHA256SUMS',
      windows: `if ((Get-FileHash '.\\it''s.msi' -Algorithm SHA256).Hash -eq '${sha('d')}') { 'OK' } else { 'FAILED' }`,
      'fingerprint-linux':
        'openssl pkey -pubin -in release-signing-key.pem -outform DER | sha256sum',
      'fingerprint-macos':
        'openssl pkey -pubin -in release-signing-key.pem -outform DER | shasum -a 256',
      signature:
        'openssl pkeyutl -verify -pubin -inkey release-signing-key.pem -rawin -in SHA256SUMS -sigfile SHA256SUMS.sig',
    });
  });

  it('groups a fingerprint in fours', () => {
    expect(groupedFingerprint('0123456789abcdef01')).toBe('0123 4567 89ab cdef 01');
  });
});
