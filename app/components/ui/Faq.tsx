import type { ReactNode } from 'react';
import styles from './Faq.module.css';

/** An FAQ item (docs/product-rules.md#data): a title and a body. `answerText` is the plain-text body for FAQPage JSON-LD. */
export interface FaqItem {
  title: string;
  body: ReactNode;
  answerText: string;
}

export function Faq({
  items,
  headingLevel = 3,
}: {
  items: readonly FaqItem[];
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className={styles.faq}>
      {items.map((item) => (
        <details key={item.title} className={styles.item}>
          <summary className={styles.summary}>
            <Heading className={styles.title}>{item.title}</Heading>
          </summary>
          <div className={styles.body}>{item.body}</div>
        </details>
      ))}
    </div>
  );
}

/** schema.org FAQPage structured data from the same items the page shows. */
export function faqJsonLd(items: readonly FaqItem[]) {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: items.map((item) => ({
      '@type': 'Question',
      name: item.title,
      acceptedAnswer: { '@type': 'Answer', text: item.answerText },
    })),
  };
}
