import type { Release } from '#shared/downloads/catalog.ts';
import {
  CURRENT_SIGNING_KEY_PATH,
  groupedFingerprint,
  SBOM_FILE,
  SHA256SUMS_FILE,
  SIGNATURE_FILE,
  SIGNING_KEY_FILE,
  verifyCommands,
  type SigningKeyDescription,
  type VerifyCommand,
} from '#shared/downloads/verification.ts';
import { pages } from '#app/pages.ts';
import { CodeBlock } from '../ui/CodeBlock.tsx';
import styles from './VerifyDownload.module.css';

export const VERIFY_ANCHOR = 'verify-your-download';

function Command({ command }: { command: VerifyCommand }) {
  return <CodeBlock code={command.command} label={command.label} language={command.language} />;
}

/**
 * "Verify your download": the release's SHA256SUMS, its signature, the public key and its
 * fingerprint, the SBOM, and the commands that check them (decision 140), built from the same
 * shared module the API test runs.
 */
export function VerifyDownload({
  release,
  windowsFile,
  signingKey,
}: {
  release: Release;
  /** The Windows file the PowerShell comparison names, with its published checksum. */
  windowsFile: { fileName: string; sha256: string };
  signingKey: SigningKeyDescription | undefined;
}) {
  const commands = verifyCommands({
    windowsFile: windowsFile.fileName,
    windowsSha256: windowsFile.sha256,
  });
  const command = (id: VerifyCommand['id']) => {
    const found = commands.find((entry) => entry.id === id);
    return found ? <Command command={found} /> : null;
  };
  // The key that signed this release: at the stable address while it is the current one.
  const keyHref = signingKey?.current ? CURRENT_SIGNING_KEY_PATH : release.signingKeyUrl;
  return (
    <section
      id={VERIFY_ANCHOR}
      className={`container section ${styles.section}`}
      aria-labelledby="verify-title"
    >
      <h2 id="verify-title">Verify your download</h2>
      <p className="lead">
        Every release comes with a list of its files&apos; SHA-256 checksums, signed with our
        release-signing key. Checking both shows that your file is exactly the one we published.
      </p>
      <p>
        How releases are signed, what we keep and how to report a vulnerability:{' '}
        <a href={pages.security.path}>Security at Orgsmith</a>.
      </p>
      <ol className={styles.steps}>
        <li>
          <p>
            <strong>Download the checksum list and its signature</strong> for {release.version} into
            the folder that holds your download:
          </p>
          <ul className={styles.files}>
            <li>
              <a href={release.sha256SumsUrl} download={SHA256SUMS_FILE}>
                {SHA256SUMS_FILE}
              </a>
            </li>
            <li>
              <a href={release.signatureUrl} download={SIGNATURE_FILE}>
                {SIGNATURE_FILE}
              </a>
            </li>
            {release.sbomUrl && (
              <li>
                <a href={release.sbomUrl} download={SBOM_FILE}>
                  {SBOM_FILE}
                </a>{' '}
                (CycloneDX SBOM: every component the release contains)
              </li>
            )}
          </ul>
        </li>
        <li>
          <p>
            <strong>Check the checksum.</strong> In that folder, run the command for your system. It
            checks the files you have and prints <code>OK</code> beside each; <code>FAILED</code>{' '}
            means the file is damaged or not ours — do not run it.
          </p>
          <p className={styles.system}>Linux</p>
          {command('linux')}
          <p className={styles.system}>macOS</p>
          {command('macos')}
          <p className={styles.system}>Windows (PowerShell)</p>
          <p>
            PowerShell has no checksum-list check, so this compares {windowsFile.fileName} with its
            published checksum; change the file name and value for another file.
          </p>
          {command('windows')}
        </li>
        <li>
          <p>
            <strong>Download the public key once</strong>:{' '}
            <a href={keyHref} download={SIGNING_KEY_FILE}>
              {SIGNING_KEY_FILE}
            </a>
            . Then check that its fingerprint is exactly
            {signingKey ? (
              <code className={styles.fingerprint}>
                {groupedFingerprint(signingKey.fingerprint)}
              </code>
            ) : (
              ' the one on this page'
            )}
            A key with another fingerprint is not ours. Keep the key: later releases are signed with
            it too until we announce a new one here.
          </p>
          <p className={styles.system}>Linux</p>
          {command('fingerprint-linux')}
          <p className={styles.system}>macOS</p>
          {command('fingerprint-macos')}
        </li>
        <li>
          <p>
            <strong>Check the signature</strong> of the checksum list with OpenSSL 3 (on macOS,
            install it first, for example with <code>brew install openssl@3</code>: the built-in
            LibreSSL cannot check this signature). It prints{' '}
            <code>Signature Verified Successfully</code>; anything else means the list was changed.
          </p>
          {command('signature')}
        </li>
      </ol>
    </section>
  );
}
