import type { ReactNode } from 'react';
import { CodeBlock } from '../ui/CodeBlock.tsx';
import styles from './ContentSections.module.css';

/** The example beside a section's text: a copyable command or config, or a figure (diagram). */
export type SectionExample =
  | { kind: 'code'; label: string; language: string; code: string; caption?: ReactNode }
  | { kind: 'figure'; figure: ReactNode; caption: ReactNode };

export interface ContentSection {
  /** Anchor of the section (`#id`), stable once published. */
  id: string;
  heading: string;
  body: ReactNode;
  example?: SectionExample;
}

/** Page sections that alternate text and an example (command, config or diagram) on wide screens. */
export function ContentSections({ sections }: { sections: readonly ContentSection[] }) {
  return (
    <>
      {sections.map((section, index) => (
        <section
          key={section.id}
          id={section.id}
          aria-labelledby={`${section.id}-heading`}
          className={`${styles.section} ${index % 2 === 1 ? styles.alternate : ''}`}
        >
          <div className={`container ${styles.grid} ${section.example ? '' : styles.single}`}>
            <div className={styles.text}>
              <h2 id={`${section.id}-heading`}>{section.heading}</h2>
              {section.body}
            </div>
            {section.example ? <Example example={section.example} /> : null}
          </div>
        </section>
      ))}
    </>
  );
}

function Example({ example }: { example: SectionExample }) {
  if (example.kind === 'code') {
    return (
      <div className={styles.example}>
        <CodeBlock code={example.code} label={example.label} language={example.language} />
        {example.caption ? <p className={styles.caption}>{example.caption}</p> : null}
      </div>
    );
  }
  return (
    <figure className={`${styles.example} ${styles.figure}`}>
      {example.figure}
      <figcaption className={styles.caption}>{example.caption}</figcaption>
    </figure>
  );
}
