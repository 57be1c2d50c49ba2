import type { ReactNode } from 'react';
import styles from './Console.module.css';

type Tone = 'success' | 'danger' | 'info';

/**
 * A result message of the console, announced to screen readers (errors assertively) and styled
 * as the site's alerts. The console has its own so that it shares no chunk with the site's pages
 * and their first-load JavaScript stays as it was (decision 226).
 */
export function Notice({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <div
      className={`${styles.notice} ${styles[tone]}`}
      role={tone === 'danger' ? 'alert' : 'status'}
    >
      {children}
    </div>
  );
}
