import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ModalLink } from '../dialogs/ModalLink.tsx';
import { Faq, type FaqItem } from '../ui/Faq.tsx';
import { pages, type PageInfo } from '#app/pages.ts';
import { CtaBand, type CallToAction } from './CtaBand.tsx';
import { PageHero } from './PageHero.tsx';
import contentHero from './ContentHero.module.css';
import styles from './ServicePage.module.css';

/** The text of a service page (in `app/content/services/`). */
export interface ServicePageContent {
  eyebrow: string;
  summary: ReactNode;
  deliverables: {
    intro: ReactNode;
    items: readonly { title: string; text: ReactNode }[];
  };
  phases: {
    intro: ReactNode;
    items: readonly { title: string; duration: string; text: ReactNode }[];
  };
  audience: {
    intro: ReactNode;
    fits: readonly string[];
    alternative: ReactNode;
  };
  faq: readonly FaqItem[];
  getInTouch: CallToAction;
}

/** Service page pattern (DESIGN.md): what you get, phases, who it is for, Get in Touch band. */
export function ServicePage({ page, content }: { page: PageInfo; content: ServicePageContent }) {
  const { deliverables, phases, audience } = content;
  return (
    <>
      <PageHero eyebrow={content.eyebrow} title={page.title} summary={content.summary}>
        <div className={contentHero.actions}>
          <ModalLink modal="contact" className="button button-primary">
            Get in Touch
          </ModalLink>
          <Link to={pages.pricing.path} className="button button-secondary">
            Licence pricing
          </Link>
        </div>
      </PageHero>

      <section className="section" aria-labelledby="deliverables-heading">
        <div className="container">
          <h2 id="deliverables-heading">What you get</h2>
          <p className="lead">{deliverables.intro}</p>
          <ul className={contentHero.cardGrid}>
            {deliverables.items.map((item) => (
              <li key={item.title} className={styles.deliverable}>
                <h3>{item.title}</h3>
                <p>{item.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className={`section ${contentHero.mutedSection}`} aria-labelledby="phases-heading">
        <div className="container">
          <h2 id="phases-heading">How an engagement runs</h2>
          <p className="lead">{phases.intro}</p>
          <ol className={styles.phases}>
            {phases.items.map((phase) => (
              <li key={phase.title} className={styles.phase}>
                <h3>{phase.title}</h3>
                <p className={styles.duration}>{phase.duration}</p>
                <p>{phase.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section" aria-labelledby="audience-heading">
        <div className={`container ${styles.audience}`}>
          <div>
            <h2 id="audience-heading">Who it is for</h2>
            <p>{audience.intro}</p>
            <ul className={styles.fits}>
              {audience.fits.map((fit) => (
                <li key={fit}>{fit}</li>
              ))}
            </ul>
            <p className={styles.alternative}>{audience.alternative}</p>
          </div>
          <div>
            <h2 id="service-faq-heading">Questions</h2>
            <Faq items={content.faq} />
          </div>
        </div>
      </section>

      <CtaBand heading={content.getInTouch.heading} text={content.getInTouch.text}>
        <ModalLink modal="contact" className="button button-primary">
          Get in Touch
        </ModalLink>
      </CtaBand>
    </>
  );
}
