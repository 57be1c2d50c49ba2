import type { Release } from '#shared/downloads/catalog.ts';
import {
  noteSegments,
  RELEASE_NOTES_ANCHOR,
  releaseAnchor,
} from '#shared/downloads/release-notes.ts';
import styles from './ChangeLog.module.css';

export type ChangeLogEntry = Pick<Release, 'version' | 'releaseDate' | 'prerelease' | 'notes'>;

function Note({ text }: { text: string }) {
  return (
    <>
      {noteSegments(text).map((part, index) =>
        part.code ? <code key={index}>{part.text}</code> : <span key={index}>{part.text}</span>,
      )}
    </>
  );
}

/** Every release, newest first, each anchored by version (`#release-3.2.2`). */
export function ChangeLog({
  entries,
  latestVersion,
  feedPath,
}: {
  entries: readonly ChangeLogEntry[];
  latestVersion: string | undefined;
  feedPath: string;
}) {
  return (
    <section
      id={RELEASE_NOTES_ANCHOR}
      className={`container section ${styles.section}`}
      aria-labelledby="change-log-title"
    >
      <div className={styles.header}>
        <h2 id="change-log-title">Change log</h2>
        <a href={feedPath} className={styles.feed}>
          Subscribe to the Atom feed
        </a>
      </div>
      {entries.length === 0 ? (
        <p>No release has been published yet.</p>
      ) : (
        <ol className={styles.timeline}>
          {entries.map((entry) => (
            <li key={entry.version} id={releaseAnchor(entry.version)} className={styles.entry}>
              <h3 className={styles.title}>
                <a href={`#${releaseAnchor(entry.version)}`} className={styles.anchor}>
                  {entry.version}
                </a>
                {entry.version === latestVersion && <span className={styles.badge}>Latest</span>}
                {entry.prerelease && (
                  <span className={`${styles.badge} ${styles.pre}`}>Pre-release</span>
                )}
              </h3>
              <p className={styles.date}>
                <time dateTime={entry.releaseDate}>{entry.releaseDate}</time>
              </p>
              <ul className={styles.notes}>
                {entry.notes.map((note) => (
                  <li key={note}>
                    <Note text={note} />
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
