import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** Lowest first, as in scripts/lint/layers.js. */
const layerOrder = ['platform', 'licensing', 'billing', 'features', 'composition'];
const eslint = new ESLint({ cwd: process.cwd() });

/** The layer messages ESLint gives `code` as if it were the file at `filePath`. */
async function violations(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'layers/no-upward-import')
    .map((message) => message.message);
}

const fileIn: Record<string, string> = {
  platform: 'server/platform/db/x.ts',
  licensing: 'server/licensing/licences/x.ts',
  billing: 'server/billing/payments/x.ts',
  features: 'server/features/contact/x.ts',
  composition: 'server/x.ts',
};
const targetIn: Record<string, string> = {
  platform: '#server/platform/db/client.ts',
  licensing: '#server/licensing/licences/licence-repository.ts',
  billing: '#server/billing/invoices/invoice-repository.ts',
  features: '#server/features/trials/x.ts',
  composition: '#server/app.ts',
};

describe("the server's layers (decision 167)", () => {
  for (const [lower, from] of layerOrder.entries()) {
    for (const [higher, to] of layerOrder.entries()) {
      const upward = higher > lower;
      it(`${upward ? 'refuses' : 'allows'} ${from} → ${to}`, async () => {
        const found = await violations(fileIn[from]!, `import '${targetIn[to]}';`);
        expect(found).toEqual(upward ? [expect.stringContaining('imports nothing above it')] : []);
      });
    }
  }

  it('resolves relative specifiers and dynamic imports', async () => {
    expect(
      await violations('server/platform/db/x.ts', "await import('../../licensing/licences/x.ts');"),
    ).toHaveLength(1);
    expect(
      await violations(
        'server/licensing/licences/x.ts',
        "export * from '../../billing/quotes/x.ts';",
      ),
    ).toHaveLength(1);
    expect(await violations('server/billing/payments/x.ts', "import '../invoices/x.ts';")).toEqual(
      [],
    );
  });

  it('lets tests cross layers, and has no exceptions left: not even a type from the composition', async () => {
    expect(await violations('server/platform/db/x.test.ts', "import '#server/app.ts';")).toEqual(
      [],
    );
    expect(
      await violations(
        'server/licensing/licences/x.ts',
        "import type { AppDeps } from '#server/deps.ts';",
      ),
    ).toHaveLength(1);
    expect(
      await violations('server/platform/http/x.ts', "import type { Env } from '#server/env.ts';"),
    ).toHaveLength(1);
  });
});
