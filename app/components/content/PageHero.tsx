import type { ReactNode } from 'react';
import styles from './PageHero.module.css';

interface PageHeroProps {
  eyebrow: string;
  title: string;
  summary: ReactNode;
  children?: ReactNode;
}

/** The top of a feature, service or support page: eyebrow, the page's only h1, a lead paragraph. */
export function PageHero({ eyebrow, title, summary, children }: PageHeroProps) {
  return (
    <div className={styles.hero}>
      <div className="container">
        <p className="eyebrow">{eyebrow}</p>
        <h1 className={styles.title}>{title}</h1>
        <p className={`lead ${styles.summary}`}>{summary}</p>
        {children}
      </div>
    </div>
  );
}
