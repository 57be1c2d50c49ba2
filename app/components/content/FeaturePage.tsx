import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ModalLink } from '../dialogs/ModalLink.tsx';
import { featurePages, pages, type PageInfo } from '#app/pages.ts';
import { ContentSections, type ContentSection } from './ContentSections.tsx';
import { CtaBand, type CallToAction } from './CtaBand.tsx';
import { PageHero } from './PageHero.tsx';
import styles from './FeaturePage.module.css';

/** The text of a feature page (in `app/content/features/`). */
export interface FeaturePageContent {
  eyebrow: string;
  summary: ReactNode;
  /** Three short facts shown under the summary. */
  highlights: readonly string[];
  sections: readonly ContentSection[];
  tryNow: CallToAction;
}

interface FeaturePageProps {
  page: PageInfo;
  content: FeaturePageContent;
  /** Extra sections after the alternating ones (e.g. the command reference). */
  children?: ReactNode;
}

/** Feature page pattern (DESIGN.md): hero, sections alternating text and example, Try Now band. */
export function FeaturePage({ page, content, children }: FeaturePageProps) {
  const others = featurePages.filter((other) => other.path !== page.path);
  return (
    <>
      <PageHero eyebrow={content.eyebrow} title={page.title} summary={content.summary}>
        <ul className={styles.highlights}>
          {content.highlights.map((highlight) => (
            <li key={highlight}>{highlight}</li>
          ))}
        </ul>
      </PageHero>
      <ContentSections sections={content.sections} />
      {children}
      <nav className={`container ${styles.related}`} aria-labelledby="related-features">
        <h2 id="related-features" className={styles.relatedHeading}>
          More features
        </h2>
        <ul className={styles.relatedList}>
          {others.map((other) => (
            <li key={other.path}>
              <Link to={other.path}>{other.title}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <CtaBand heading={content.tryNow.heading} text={content.tryNow.text}>
        <ModalLink modal="trial" className="button button-primary">
          Try Now
        </ModalLink>
        <Link to={pages.pricing.path} className="button button-secondary">
          See pricing
        </Link>
      </CtaBand>
    </>
  );
}
