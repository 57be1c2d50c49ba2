import { siteConfig } from '#shared/site-config.ts';
import styles from './Logo.module.css';

/** The mark (a prompt chevron joining two nodes: org and Git) and the wordmark, inline. */
interface LogoProps {
  tone?: 'light' | 'dark';
  /** Lets a tight layout hide the wordmark and keep the mark. */
  wordmarkClassName?: string;
}

export function Logo({ tone = 'light', wordmarkClassName = '' }: LogoProps) {
  return (
    <span className={`${styles.logo} ${tone === 'dark' ? styles.onDark : ''}`}>
      <svg className={styles.mark} viewBox="0 0 32 32" width="32" height="32" aria-hidden="true">
        <rect width="32" height="32" rx="8" className={styles.markBg} />
        <path
          d="M9 10.5l6 5.5-6 5.5"
          fill="none"
          className={styles.markChevron}
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <path d="M17.5 21.5h6" className={styles.markLine} strokeWidth="3" strokeLinecap="round" />
      </svg>
      <span className={`${styles.wordmark} ${wordmarkClassName}`}>{siteConfig.productName}</span>
    </span>
  );
}
