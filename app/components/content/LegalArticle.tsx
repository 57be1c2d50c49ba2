import type { ReactNode } from 'react';
import { numberedHeading, type LegalBlock, type LegalDocument } from './legal-document.ts';
import styles from './LegalArticle.module.css';

const emailPattern = /([\w.+-]+@[\w-]+(?:\.[\w-]+)+)/;

/** Plain legal text with its e-mail addresses turned into mailto links. */
function linkEmails(text: string): ReactNode[] {
  return text.split(emailPattern).map((part, index) =>
    index % 2 === 1 ? (
      <a key={index} href={`mailto:${part}`}>
        {part}
      </a>
    ) : (
      part
    ),
  );
}

function Block({ block }: { block: LegalBlock }) {
  if (block.kind === 'paragraph') return <p>{linkEmails(block.text)}</p>;
  return (
    <ul>
      {block.items.map((item) => (
        <li key={item}>{linkEmails(item)}</li>
      ))}
    </ul>
  );
}

interface LegalArticleProps {
  document: LegalDocument;
  /** Shown under the version line, e.g. the PDF download link. */
  actions?: ReactNode;
}

/** Legal page pattern (DESIGN.md): article layout, version line and date on top, table of contents. */
export function LegalArticle({ document, actions }: LegalArticleProps) {
  return (
    <article className={`container ${styles.layout}`} aria-labelledby="legal-title">
      <header className={styles.header}>
        <h1 id="legal-title">{document.title}</h1>
        <p className={styles.subtitle}>{document.subtitle}</p>
        <p className={styles.version} data-testid="version-line">
          Version {document.version}, dated <time dateTime={document.date}>{document.date}</time>
        </p>
        {actions}
      </header>
      <nav className={styles.toc} aria-labelledby="toc-heading">
        <h2 id="toc-heading" className={styles.tocHeading}>
          Contents
        </h2>
        {/* The number is the link's own first column, so a long entry wraps beside it, not under it. */}
        <ol className={styles.tocList}>
          {document.sections.map((section, index) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className={styles.tocLink}>
                <span className={styles.tocNumber}>{index + 1}.</span>{' '}
                <span>{section.heading}</span>
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <div className={styles.body}>
        {document.intro.map((block, index) => (
          <Block key={index} block={block} />
        ))}
        {document.sections.map((section) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`}>
            <h2 id={`${section.id}-heading`} className={styles.heading}>
              {numberedHeading(document, section)}
            </h2>
            {section.blocks.map((block, index) => (
              <Block key={index} block={block} />
            ))}
          </section>
        ))}
      </div>
    </article>
  );
}
