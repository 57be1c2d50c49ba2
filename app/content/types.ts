import type { ReactNode } from 'react';
import type { FaqItem } from '../components/ui/Faq.tsx';

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

export interface CallToAction {
  heading: string;
  text: ReactNode;
}

export interface FeaturePageContent {
  eyebrow: string;
  summary: ReactNode;
  /** Three short facts shown under the summary. */
  highlights: readonly string[];
  sections: readonly ContentSection[];
  tryNow: CallToAction;
}

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
