import type { ReactNode } from 'react';
import styles from './Alert.module.css';

type Tone = 'success' | 'danger' | 'info' | 'warning';

/** A result message announced to screen readers: errors assertively, everything else politely. */
export function Alert({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <div
      className={`${styles.alert} ${styles[tone]}`}
      role={tone === 'danger' ? 'alert' : 'status'}
      data-tone={tone}
    >
      {children}
    </div>
  );
}
