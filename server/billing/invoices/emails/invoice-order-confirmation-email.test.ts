import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { invoiceOrderConfirmationEmail } from './invoice-order-confirmation-email.ts';

describe('the invoice order confirmation e-mail', () => {
  it('writes "an Orgsmith" (issue 39)', () => {
    const mail = invoiceOrderConfirmationEmail({
      order: { edition: 'Pro', quantity: 5, billingPeriod: 'yearly', currency: 'EUR' },
      quoteNumber: null,
      amount: {
        currency: 'EUR',
        netMinor: 100,
        vatMinor: 19,
        grossMinor: 119,
        vatLabel: 'VAT 19 %',
        note: null,
      },
      confirmUrl: 'https://orgsmith.example/invoice-orders/confirm?token=x',
      publicBaseUrl: 'https://orgsmith.example',
    });
    expect(mail.text).toContain('someone ordered an Orgsmith subscription paid by invoice');
    expect(mail.text).not.toMatch(/\ba Orgsmith\b/);
  });
});

/** Every source file of the product under `dir` (tests aside). */
async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(ts|tsx|md|sql)$/.test(entry.name))
    .filter((entry) => !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !file.includes(`${path.sep}+types${path.sep}`));
}

describe('the product name after an article', () => {
  it('is never "a Orgsmith", written out or put together', async () => {
    const root = path.resolve(import.meta.dirname, '../../../..');
    const files = (
      await Promise.all(['app', 'server', 'shared'].map((dir) => sourceFiles(path.join(root, dir))))
    ).flat();
    const wrong =
      /\b[aA] (Orgsmith\b|\$\{(product|productName|siteConfig\.productName)\}|\{(product|productName|siteConfig\.productName)\})/;
    const offenders: string[] = [];
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      if (wrong.test(text)) offenders.push(path.relative(root, file));
    }
    expect(offenders).toEqual([]);
  });
});
