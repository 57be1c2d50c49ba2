import styles from './FeatureMark.module.css';

interface FeatureMarkProps {
  included: boolean;
  /** Spell out "Included" / "Not included" for screen readers (tables); off when the text says it. */
  announce?: boolean;
}

/** A check or a cross. */
export function FeatureMark({ included, announce = true }: FeatureMarkProps) {
  return (
    <span className={included ? styles.included : styles.excluded}>
      <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
        {included ? (
          <path d="M3 8.5l3.2 3L13 4.5" fill="none" stroke="currentColor" strokeWidth="2.2" />
        ) : (
          <path d="M4.5 4.5l7 7m0-7l-7 7" fill="none" stroke="currentColor" strokeWidth="2" />
        )}
      </svg>
      {announce && (
        <span className="visually-hidden">{included ? 'Included' : 'Not included'}</span>
      )}
    </span>
  );
}
