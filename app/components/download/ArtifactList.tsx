import {
  sameSelection,
  type DownloadSelection,
  type ReleaseArtifact,
} from '#shared/downloads/catalog.ts';
import { CodeBlock } from '../ui/CodeBlock.tsx';
import { DownloadLink } from './DownloadLink.tsx';
import { formatSize } from './format-size.ts';
import styles from './ArtifactList.module.css';

const formatNames = {
  msi: 'Installer (.msi)',
  pkg: 'Installer (.pkg)',
  zip: 'Zip archive',
} as const;

interface ArtifactListProps {
  artifacts: readonly ReleaseArtifact[];
  suggested: DownloadSelection | undefined;
}

/** One row per file: what it is, its size, its SHA-256 (copyable) and the download button. */
export function ArtifactList({ artifacts, suggested }: ArtifactListProps) {
  if (artifacts.length === 0) {
    return <p>The current release has no files for this system.</p>;
  }
  return (
    <ul className={styles.list}>
      {artifacts.map((artifact) => {
        const isSuggested = suggested !== undefined && sameSelection(artifact, suggested);
        return (
          <li
            key={artifact.fileName}
            className={`${styles.row} ${isSuggested ? styles.suggested : ''}`}
            data-file-name={artifact.fileName}
            data-suggested={isSuggested || undefined}
          >
            <div className={styles.what}>
              <p className={styles.name}>
                {artifact.architecture} · {formatNames[artifact.format]}
                {isSuggested && <span className={styles.badge}>Suggested for you</span>}
              </p>
              <p className={styles.description}>{artifact.description}</p>
              <p className={styles.meta}>
                <code>{artifact.fileName}</code> · {formatSize(artifact.sizeBytes)}
              </p>
            </div>
            <div className={styles.checksum}>
              <span className={styles.checksumLabel}>SHA-256</span>
              <CodeBlock code={artifact.sha256} label={`SHA-256 of ${artifact.fileName}`} />
            </div>
            <DownloadLink
              artifact={artifact}
              className={`button ${isSuggested ? 'button-primary' : 'button-secondary'} ${styles.download}`}
              aria-label={`Download ${artifact.fileName}`}
            >
              Download
            </DownloadLink>
          </li>
        );
      })}
    </ul>
  );
}
