import { useId, type ReactNode } from 'react';
import styles from './CtaBand.module.css';

/** The heading and text of a call-to-action band. */
export interface CallToAction {
  heading: string;
  text: ReactNode;
}

interface CtaBandProps extends CallToAction {
  /** The buttons: ModalLinks or Links with the global button classes. */
  children: ReactNode;
}

/** A dark call-to-action band closing a page (Try Now, Get in Touch, Start for Free). */
export function CtaBand({ heading, text, children }: CtaBandProps) {
  const headingId = useId();
  return (
    <section className={styles.band} aria-labelledby={headingId}>
      <div className={`container ${styles.inner}`}>
        <div>
          <h2 id={headingId} className={styles.heading}>
            {heading}
          </h2>
          <p className={styles.text}>{text}</p>
        </div>
        <div className={styles.actions}>{children}</div>
      </div>
    </section>
  );
}
