import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

/** The restricted-import messages ESLint gives `code` as if it were the file at `filePath`. */
async function violations(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

describe('the layers, as lint enforces them (decision 114)', () => {
  it('keeps the site and the shared packages away from the server', async () => {
    expect(
      await violations('app/routes/x.tsx', "import type { AppDeps } from '#server/deps.ts';"),
    ).toEqual([expect.stringContaining('never import the server')]);
    expect(
      await violations('shared/x.ts', "import { siteContext } from '#app/context.ts';"),
    ).toEqual([expect.stringContaining('imports nothing from app/')]);
    expect(
      await violations('shared/x.ts', "import type { Env } from '#server/env.ts';"),
    ).toHaveLength(1);
    expect(
      await violations('app/x.ts', "import { priceConfig } from '#shared/pricing/index.ts';"),
    ).toEqual([]);
  });

  it('keeps the site components away from the content and the routes (decision 173)', async () => {
    const refused = [expect.stringContaining('take the copy as props')];
    expect(
      await violations(
        'app/components/pricing/x.tsx',
        "import { planFeatures } from '#app/content/pricing-plans.ts';",
      ),
    ).toEqual(refused);
    expect(
      await violations(
        'app/components/content/x.tsx',
        "import type { LegalDocument } from '#app/content/legal/eula.ts';",
      ),
    ).toEqual(refused);
    expect(
      await violations(
        'app/components/ui/x.tsx',
        "import { meta } from '#app/routes/pricing.tsx';",
      ),
    ).toEqual(refused);
    expect(
      await violations('app/components/download/x.tsx', "import { x } from '../../content/x.ts';"),
    ).toContainEqual(expect.stringContaining('take the copy as props'));
    expect(
      await violations('app/components/x/x.tsx', "import type { AppDeps } from '#server/deps.ts';"),
    ).toEqual([expect.stringContaining('never import the server')]);
    // Other component folders, the app's page list and shared/ stay open; so do content, routes
    // and the components' own tests.
    for (const code of [
      "import { EditionBadge } from '../content/EditionBadge.tsx';",
      "import { FeatureIcon } from '#app/components/content/FeatureIcon.tsx';",
      "import { pages } from '#app/pages.ts';",
      "import { priceInfo } from '#shared/pricing/index.ts';",
    ]) {
      expect(await violations('app/components/pricing/x.tsx', code)).toEqual([]);
    }
    const content = "import { planFeatures } from '#app/content/pricing-plans.ts';";
    expect(await violations('app/components/pricing/x.test.ts', content)).toEqual([]);
    expect(await violations('app/routes/x.tsx', content)).toEqual([]);
    expect(
      await violations(
        'app/content/x.tsx',
        "import type { PlanFeature } from '#app/components/pricing/plan-labels.ts';",
      ),
    ).toEqual([]);
  });

  it('allows drizzle-orm only in repositories and server/platform/db/', async () => {
    const code = "import { eq } from 'drizzle-orm';";
    expect(await violations('server/licensing/licences/revoke-licence.ts', code)).toEqual([
      expect.stringContaining('*-repository.ts'),
    ]);
    expect(await violations('server/licensing/licences/licence-repository.ts', code)).toEqual([]);
    expect(await violations('server/platform/db/client.ts', code)).toEqual([]);
    expect(await violations('app/x.ts', code)).toHaveLength(1);
  });

  it('keeps Stripe in its adapter and nodemailer in the mail transports', async () => {
    expect(
      await violations('server/billing/checkout/x.ts', "import Stripe from 'stripe';"),
    ).toEqual([expect.stringContaining('server/billing/payments/stripe/')]);
    expect(
      await violations('server/billing/payments/stripe/x.ts', "import Stripe from 'stripe';"),
    ).toEqual([]);
    expect(
      await violations('server/features/contact/x.ts', "import nodemailer from 'nodemailer';"),
    ).toHaveLength(1);
    expect(
      await violations(
        'server/platform/email/smtp-transport.ts',
        "import nodemailer from 'nodemailer';",
      ),
    ).toEqual([]);
  });

  it('refuses imports that climb out of a folder', async () => {
    expect(
      await violations('server/licensing/licences/x.ts', "import { x } from '../../shared/x.ts';"),
    ).toEqual([expect.stringContaining('subpath import')]);
    expect(
      await violations('server/licensing/licences/x.ts', "import { x } from '../db/client.ts';"),
    ).toEqual([]);
  });

  it('refuses an import cycle, also through a subpath import', async () => {
    // mail-transport.ts imports smtp-transport.ts: importing it back closes a cycle.
    const cycles = async (code: string) => {
      const [result] = await eslint.lintText(`${code}\nexport {};\n`, {
        filePath: 'server/platform/email/smtp-transport.ts',
      });
      return (result?.messages ?? []).filter((message) => message.ruleId === 'import-x/no-cycle');
    };
    expect(await cycles("import { createMailTransport } from './mail-transport.ts';")).toHaveLength(
      1,
    );
    expect(
      await cycles(
        "import { createMailTransport } from '#server/platform/email/mail-transport.ts';",
      ),
    ).toHaveLength(1);
    expect(await cycles("import type { MailTransport } from './outgoing-email.ts';")).toEqual([]);
  });
});
