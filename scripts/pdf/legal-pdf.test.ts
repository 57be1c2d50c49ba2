import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eula } from '#app/content/legal/eula.ts';
import {
  list,
  numberedHeading,
  paragraph,
  versionLine,
  type LegalBlock,
  type LegalDocument,
} from '#app/components/content/legal-document.ts';
import { siteConfig } from '#shared/site-config.ts';
import { renderLegalPdf } from './legal-pdf.ts';

// poppler-utils reads the PDF as a reader would: pdfinfo for its properties and structure tree,
// pdftotext for its text in reading order.
const run = promisify(execFile);
const owner = siteConfig.company.name;
let dir: string;
let eulaFile: string;

async function writePdf(name: string, document: LegalDocument): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, await renderLegalPdf(document, owner));
  return file;
}
const pdfinfo = async (...args: string[]) => (await run('pdfinfo', args)).stdout;
const pdftotext = async (file: string) => (await run('pdftotext', [file, '-'])).stdout;

/**
 * The words with single spaces, whatever the line breaks were. Hyphens go on both sides: pdfkit
 * may break a line after one ("non-" / "transferable"), and pdftotext then joins the halves.
 */
const words = (text: string) => text.replace(/-\s*/g, '').replace(/\s+/g, ' ').trim();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-legal-pdf-'));
  eulaFile = await writePdf('eula.pdf', eula);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the EULA as a tagged PDF', () => {
  it('is tagged, titled, A4, PDF 1.7, in English, with its fonts embedded', async () => {
    const info = await pdfinfo(eulaFile);
    expect(info).toMatch(/^Tagged:\s+yes$/m);
    expect(info).toMatch(new RegExp(`^Title:\\s+${eula.title} – ${versionLine(eula)}$`, 'm'));
    expect(info).toMatch(new RegExp(`^Author:\\s+${owner}$`, 'm'));
    expect(info).toMatch(/^Page size:\s+595\.28 x 841\.89 pts \(A4\)$/m);
    expect(info).toMatch(/^PDF version:\s+1\.7$/m);
    const raw = (await run('cat', [eulaFile], { encoding: 'latin1' })).stdout;
    expect(raw).toMatch(/\/Lang \(en\)/);
    expect(raw).toMatch(/\/MarkInfo \d+ 0 R/);
    expect(raw).toMatch(/\/DisplayDocTitle true/);
    const fonts = (await run('pdffonts', [eulaFile])).stdout;
    expect(fonts).toMatch(/\+DejaVuSans-Bold\s+CID TrueType\s+Identity-H\s+yes yes yes/);
    expect(fonts).toMatch(/\+DejaVuSans\s+CID TrueType\s+Identity-H\s+yes yes yes/);
  });

  it('has a structure tree: H1, then a section per heading with H2, paragraphs and lists', async () => {
    const tree = await pdfinfo('-struct', eulaFile);
    const tags = [...tree.matchAll(/^(\s*)(\w+)/gm)].map((m) => `${m[1]}${m[2]}`);
    expect(tags[0]).toBe('Document');
    expect(tags[1]).toBe('  H1');
    expect(tags.filter((tag) => tag === '  Sect')).toHaveLength(eula.sections.length);
    expect(tags.filter((tag) => tag === '    H2')).toHaveLength(eula.sections.length);
    for (const section of eula.sections) expect(tree).toContain(`Sect "${section.heading}"`);
    const items = eula.sections.flatMap((section) =>
      section.blocks.flatMap((block) => (block.kind === 'list' ? block.items : [])),
    );
    expect(tags.filter((tag) => tag.trim() === 'LI')).toHaveLength(items.length);
    expect(tags.filter((tag) => tag.trim() === 'Lbl')).toHaveLength(items.length);
    expect(tags.filter((tag) => tag.trim() === 'LBody')).toHaveLength(items.length);
    // The footer is an artifact, outside the tree: no element names it.
    expect(tree).not.toContain('Page 1 of');
  });

  it('reads as the source text, in order, with the footer on every page', async () => {
    const blocks = (items: readonly LegalBlock[]) =>
      items.flatMap((block) =>
        block.kind === 'paragraph' ? [block.text] : block.items.map((item) => `• ${item}`),
      );
    const expected = [
      eula.title,
      eula.subtitle,
      versionLine(eula),
      ...blocks(eula.intro),
      ...eula.sections.flatMap((section) => [
        numberedHeading(eula, section),
        ...blocks(section.blocks),
      ]),
    ].join(' ');
    const text = await pdftotext(eulaFile);
    const pages = text.split('\f').filter((page) => page.trim() !== '');
    const footer = `${owner} · ${eula.title} · ${versionLine(eula)}`;
    const body = pages.map((page, index) => {
      expect(page).toContain(footer);
      expect(page).toContain(`Page ${index + 1} of ${pages.length}`);
      return page.replace(footer, '').replace(`Page ${index + 1} of ${pages.length}`, '');
    });
    expect(words(body.join(' '))).toBe(words(expected));
    // Typographic quotes and the German address survive as Unicode.
    expect(text).toContain('(the “Agreement”)');
    expect(text).toContain('Speicherstraße');
  });

  it('produces the same bytes for the same source (reproducible builds)', async () => {
    expect(await renderLegalPdf(eula, owner)).toEqual(await renderLegalPdf(eula, owner));
  });
});

describe('characters beyond Windows-1252', () => {
  const sample: LegalDocument = {
    title: 'Licence – Łódź',
    subtitle: 'Ελληνικά and кириллица',
    version: 2,
    date: '2026-11-25',
    intro: [paragraph('Prices in €; Dvořák, Đorđe, ő, ş, ğ.')],
    sections: [{ id: 'one', heading: 'Übersicht', blocks: [list('Kraków', 'Zürich')] }],
  };

  it('embeds what the font has and extracts it again', async () => {
    const text = await pdftotext(await writePdf('sample.pdf', sample));
    for (const word of ['Łódź', 'Ελληνικά', 'кириллица', '€', 'Dvořák', 'Đorđe', 'Kraków'])
      expect(text).toContain(word);
    expect(text).toContain('1. Übersicht');
  });

  it('refuses a character the font lacks instead of printing a box', async () => {
    await expect(renderLegalPdf({ ...sample, subtitle: 'Kanji 漢' }, owner)).rejects.toThrow(
      /^DejaVu Sans has no glyph for U\+6F22$/,
    );
  });
});
