/**
 * Legal texts as plain structured data (headings, paragraphs, lists): the React pages and the
 * build-time PDF writer render the same source, so the web page and the PDF cannot drift apart.
 * Any character the PDF font has may be used (DejaVu Sans, server/platform/pdf/: Latin, Greek, Cyrillic and
 * more); the PDF embeds it, and the build stops at one it lacks.
 */

export type LegalBlock =
  { kind: 'paragraph'; text: string } | { kind: 'list'; items: readonly string[] };

export interface LegalSection {
  /** Anchor of the section on the page (`#id`). */
  id: string;
  heading: string;
  blocks: readonly LegalBlock[];
}

export interface LegalDocument {
  title: string;
  subtitle: string;
  version: number;
  /** ISO date (YYYY-MM-DD) the version was issued. */
  date: string;
  intro: readonly LegalBlock[];
  sections: readonly LegalSection[];
}

export const paragraph = (text: string): LegalBlock => ({ kind: 'paragraph', text });
export const list = (...items: string[]): LegalBlock => ({ kind: 'list', items });

/** The line under the title on the page and in the PDF, e.g. "Version 1, dated 2021-07-31". */
export function versionLine(document: Pick<LegalDocument, 'version' | 'date'>): string {
  return `Version ${document.version}, dated ${document.date}`;
}

/** Section headings are numbered in order on the page and in the PDF. */
export function numberedHeading(document: LegalDocument, section: LegalSection): string {
  return `${document.sections.indexOf(section) + 1}. ${section.heading}`;
}
