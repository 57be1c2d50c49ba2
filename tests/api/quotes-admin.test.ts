import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../support/databases.ts';
import { runAdminOn } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { postJson } from './account-support.ts';

describe.each(databaseTargets)('quote operator commands on $name', (target) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp(target);
    dir = await mkdtemp(join(tmpdir(), 'quotes-admin-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await t.close();
  });

  const admin = (...argv: string[]) => runAdminOn(t, ...argv);

  it('lists nothing before the first quote, and lists the commands in the help', async () => {
    expect(await admin('quotes', 'list')).toMatchObject({ code: 0, out: 'No quotes.' });
    const help = await admin('--help');
    expect(help.out).toContain('quotes list');
    expect(help.out).toContain('quotes show');
  });

  it('lists quotes newest first and shows one with its lines, total and tax note', async () => {
    const base = {
      emailAddress: 'buyer@example.com',
      addressLine: 'Rue 1',
      postalCode: '75001',
      city: 'Paris',
      country: 'FR',
      billingPeriod: 'yearly',
      billingCurrency: 'EUR',
    };
    await postJson(t, '/account/v1/quotes', {
      ...base,
      companyName: 'First GmbH',
      edition: 'Pro',
      quantity: 7,
      vatId: 'FR40303265045',
      purchaseOrder: 'PO-1',
    });
    t.setNow(new Date('2026-01-15T11:00:00Z'));
    await postJson(t, '/account/v1/quotes', {
      ...base,
      companyName: 'Second Ltd',
      edition: 'Enterprise',
      quantity: 25,
    });

    const listed = await admin('quotes', 'list');
    expect(listed.code).toBe(0);
    const lines = listed.out.split('\n');
    expect(lines[0]).toMatch(/^NUMBER\s+DATE\s+VALID UNTIL\s+STATUS\s+COMPANY/);
    expect(lines[1]).toMatch(
      /^Q-2026-0002\s+2026-01-15\s+2026-02-14\s+open\s+Second Ltd\s+buyer@example.com\s+Enterprise ×25\s+yearly\s+€35,002\.00$/,
    );
    expect(lines[2]).toMatch(/^Q-2026-0001 .*First GmbH .*Pro ×7\s+yearly\s+€8,996\.00$/);
    expect((await admin('quotes', 'list', '--limit', '1')).out.split('\n')).toHaveLength(2);

    const json = await admin('quotes', 'list', '--json');
    const parsed: Array<Record<string, unknown>> = JSON.parse(json.out);
    expect(parsed.map((quote) => quote.number)).toEqual(['Q-2026-0002', 'Q-2026-0001']);
    expect(json.out).not.toContain('tokenHash');

    const shown = await admin('quotes', 'show', 'Q-2026-0001');
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('Status:          open');
    expect(shown.out).toContain('Company:         First GmbH');
    expect(shown.out).toContain('VAT ID:          FR40303265045');
    expect(shown.out).toContain('Billing address: Rue 1, 75001 Paris, France');
    expect(shown.out).toContain('Purchase order:  PO-1');
    expect(shown.out).toMatch(/Orgsmith Pro licence\s+1\s+€4,946\.00\s+€4,946\.00/);
    expect(shown.out).toMatch(/Additional Salesforce orgs\s+3\s+€1,350\.00\s+€4,050\.00/);
    expect(shown.out).toContain('Net per year: €8,996.00');
    expect(shown.out).toContain('VAT 0 % (reverse charge): €0.00');
    expect(shown.out).toContain('Total per year: €8,996.00');
    expect(shown.out).toContain('Yearly saving: €1,000.00');
    expect(shown.out).toContain('Tax: Reverse charge');
  });

  it('writes the operator’s copy of the PDF', async () => {
    const file = join(dir, 'copy.pdf');
    const shown = await admin('quotes', 'show', 'Q-2026-0002', '--pdf', file);
    expect(shown.code).toBe(0);
    const pdf = await readFile(file);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('refuses what is not a quote number (2) and an unknown quote (1)', async () => {
    expect(await admin('quotes', 'show', '2026-1')).toMatchObject({ code: 2 });
    const missing = await admin('quotes', 'show', 'Q-2026-0099');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('No quote Q-2026-0099.');
    expect((await admin('quotes', 'list', '--since', 'yesterday')).code).toBe(2);
  });
});
