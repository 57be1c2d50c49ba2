import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentsOf } from '#server/platform/email/outbox-repository.ts';
import { emailOutbox } from '#server/platform/db/schema.ts';
import { postJson } from '../api/account-support.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const run = promisify(execFile);

/**
 * Issue 38, invariant A (decision 208): a quote goes to any address typed in, with its PDF
 * attached. The e-mail was clean (decision 159), but the PDF printed the typed company name,
 * purchase order and city as typed, and a PDF viewer links `https://…`, `www.…`, addresses and
 * bare domains on its own: a phishing link from our domain. The PDF now brackets what makes
 * such a word a link.
 */
const pdftotext = async (pdf: Buffer) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'unconfirmed-pdf-'));
  try {
    const file = path.join(dir, 'quote.pdf');
    await writeFile(file, pdf);
    return (await run('pdftotext', [file, '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/** Anything a viewer would link to the attacker's host, in any form. */
const linkable = /https?:\/\/evil|www\.evil|evil\.example|@evil/i;

describe.each(databaseTargets)('documents to an unconfirmed address on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  it('the quote PDF mailed to a third party carries no link from the company name, PO or city', async () => {
    const response = await postJson(t, '/account/v1/quotes', {
      companyName: 'Acme https://evil.example/login Ltd',
      emailAddress: 'victim@example.com',
      addressLine: 'Visit www.evil.example 1',
      postalCode: '10115',
      city: 'Berlin evil.example/x',
      country: 'DE',
      purchaseOrder: 'PO-1 https://evil.example/po',
      edition: 'Enterprise',
      quantity: 25,
      billingPeriod: 'yearly',
      billingCurrency: 'USD',
    });
    expect(response.status).toBe(201);
    const [mail] = (await t.deps.database.db.select().from(emailOutbox)).filter(
      (row) => row.kind === 'quote',
    );
    expect(mail?.toAddress).toBe('victim@example.com');
    const [pdf] = mail ? attachmentsOf(mail) : [];
    if (!pdf) throw new Error('the quote e-mail has no PDF');
    const text = await pdftotext(pdf.content);
    // A long value wraps in its column (a viewer may join the lines again): also without spaces.
    const joined = text.replace(/\s+/g, '');

    for (const read of [text, joined]) {
      expect(read).not.toContain('https://evil.example/po');
      expect(read).not.toMatch(linkable);
    }
    // Still readable: the buyer sees what was typed, bracketed.
    expect(joined).toContain('PO-1https[:]//evil[.]example/po');
    expect(joined).toContain('Acmehttps[:]//evil[.]example/loginLtd');
    expect(joined).toContain('Berlinevil[.]example/x');
    // The only link annotation is ours (the accept link), none to the attacker's host.
    const uris = [...pdf.content.toString('latin1').matchAll(/\/URI \(([^)]*)\)/g)];
    expect(uris.length).toBeGreaterThan(0);
    for (const [, uri] of uris) {
      expect(uri).toMatch(/^http:\/\/localhost:3000\/quote\/accept\?token=/);
    }
  });
});
