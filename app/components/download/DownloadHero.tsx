import type { Release, ReleaseArtifact } from '#shared/downloads/catalog.ts';
import { RELEASE_NOTES_ANCHOR } from '#shared/downloads/release-notes.ts';
import { siteConfig } from '#shared/site-config.ts';
import { DownloadLink } from './DownloadLink.tsx';
import { formatSize } from './format-size.ts';
import styles from './DownloadHero.module.css';

export const OTHER_OPTIONS_ANCHOR = 'other-options';

const formatNames = { msi: '.msi installer', pkg: '.pkg installer', zip: '.zip archive' } as const;

interface DownloadHeroProps {
  release: Release | undefined;
  suggested: ReleaseArtifact | undefined;
}

/** Version, date and the one big suggested download; the tabs below hold every other file. */
export function DownloadHero({ release, suggested }: DownloadHeroProps) {
  return (
    <section className={styles.hero} aria-labelledby="download-title">
      <div className="container">
        <p className="eyebrow">Download</p>
        <h1 id="download-title">Download {siteConfig.productName}</h1>
        {release ? (
          <p className={styles.version} data-testid="current-version">
            Version <strong>{release.version}</strong>, released{' '}
            <time dateTime={release.releaseDate}>{release.releaseDate}</time>
          </p>
        ) : (
          <p className={styles.version}>
            No release has been published yet. The Docker image and the GitHub Action below work in
            the meantime.
          </p>
        )}
        {suggested && (
          <div className={styles.suggested} data-testid="suggested-download">
            <DownloadLink
              artifact={suggested}
              className={`button button-primary ${styles.button}`}
              aria-describedby="suggested-description"
            >
              <span className={styles.buttonTitle}>Download for {suggested.operatingSystem}</span>
              <span className={styles.buttonDetail}>
                {formatNames[suggested.format]}, {suggested.architecture},{' '}
                {formatSize(suggested.sizeBytes)}
              </span>
            </DownloadLink>
            <p className={styles.description} id="suggested-description">
              {suggested.description}
              <br />
              <code className={styles.file}>{suggested.fileName}</code>
            </p>
          </div>
        )}
        <p className={styles.links}>
          {release && <a href={`#${RELEASE_NOTES_ANCHOR}`}>Release notes</a>}
          <a href={`#${OTHER_OPTIONS_ANCHOR}`}>Other options</a>
        </p>
      </div>
    </section>
  );
}
