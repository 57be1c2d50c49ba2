import { PageHero } from '../components/content/PageHero.tsx';
import { securityContent } from '../content/security.tsx';
import { pages } from '../pages.ts';
import { metaFor } from '../root-data.ts';
import styles from './security.module.css';

export const meta = metaFor(pages.security);

/** The trust page (decision 188): one section per question a security review asks. */
export default function SecurityPage() {
  const { eyebrow, summary, sections } = securityContent;
  return (
    <>
      <PageHero eyebrow={eyebrow} title={pages.security.title} summary={summary} />
      <div className={`container section ${styles.layout}`}>
        <nav className={styles.toc} aria-labelledby="security-toc">
          <h2 id="security-toc" className={styles.tocHeading}>
            On this page
          </h2>
          <ul>
            {sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`}>{section.heading}</a>
              </li>
            ))}
          </ul>
        </nav>
        <div className={styles.body}>
          {sections.map((section) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`}>
              <h2 id={`${section.id}-heading`}>{section.heading}</h2>
              {section.body}
            </section>
          ))}
        </div>
      </div>
    </>
  );
}
