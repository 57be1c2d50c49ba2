import { structuredDataPrice } from '#shared/pricing/index.ts';
import { describe, expect, it } from 'vitest';
import { siteConfig } from '#shared/site-config.ts';
import { missingGlyphs } from '#server/platform/pdf/missing-glyphs.ts';
import { featurePages } from '../pages.ts';
import { commandGroups, commandOptions, toolboxCommands } from './commands.ts';
import { githubActionsWorkflow } from './ci-examples.ts';
import { homeContent } from './home.ts';
import { imprint } from './legal/imprint.ts';
import { eula, eulaPdfPath } from './legal/eula.ts';
import type { LegalDocument } from '#app/components/content/legal-document.ts';
import { privacyPolicy } from './legal/privacy.ts';
import { homeStructuredData, rating } from './structured-data.ts';

const fullText = (document: LegalDocument) =>
  [...document.intro, ...document.sections.flatMap((section) => section.blocks)]
    .flatMap((block) => (block.kind === 'paragraph' ? [block.text] : block.items))
    .join(' ');

describe('command reference', () => {
  it('lists exactly the seventeen named commands of docs/product-rules.md#product, once each', () => {
    const names = commandGroups.flatMap((group) => group.commands.map((command) => command.name));
    expect(names.toSorted()).toEqual(
      [
        'env:create',
        'env:delete',
        'env:list',
        'env:tags:set',
        'env:tags:delete',
        'env:test',
        'flow:in',
        'flow:out',
        'flow:merge',
        'stack:create',
        'stack:delete',
        'stack:list',
        'stack:setdefault',
        'auth:key:create',
        'auth:key:save',
        'auth:salesforce:save',
        'auth:git:save',
      ].toSorted(),
    );
    for (const group of commandGroups) {
      for (const command of group.commands) expect(command.summary.length).toBeGreaterThan(20);
    }
  });

  it('documents the six options and only with commands that exist', () => {
    expect(commandOptions.map((option) => option.name)).toEqual([
      'checkOnly',
      'environment',
      'from',
      'into',
      'name',
      'branchName',
    ]);
    const known = new Set([
      ...commandGroups.flatMap((group) => group.commands.map((command) => command.name)),
      ...toolboxCommands.map((command) => command.command),
    ]);
    for (const option of commandOptions) {
      for (const command of option.usedWith) expect(known, command).toContain(command);
    }
  });

  it('has every toolbox command with an edition; the ones that change orgs are Pro and higher', () => {
    expect(toolboxCommands.map((command) => command.name)).toEqual([
      'retrieve',
      'deploy',
      'normalize',
      'prune',
      'diff',
      'stats',
      'manifest',
      'apply',
      'commit',
      'sandbox create',
      'sandbox delete',
      'sandbox list',
    ]);
    const pro = toolboxCommands.filter((command) => command.edition === 'pro').map((c) => c.name);
    expect(pro).toEqual(['deploy', 'apply', 'commit', 'sandbox create', 'sandbox delete']);
  });
});

describe('home content', () => {
  it('links the six feature pages and the four getting-started steps', () => {
    expect(homeContent.features.cards.map((card) => card.page.path)).toEqual(
      featurePages.map((page) => page.path),
    );
    expect(homeContent.gettingStarted.steps.map((step) => step.link.href)).toEqual([
      '/download',
      siteConfig.links.docs,
      siteConfig.links.communityChat,
      '/pricing',
    ]);
  });

  it('builds product and organisation data with the Starter monthly USD price', () => {
    const { application, organization } = homeStructuredData(
      'https://example.test',
      { version: '3.2.2', releaseDate: '2025-06-07' },
      structuredDataPrice(),
    );
    expect(application.offers).toMatchObject({ price: '0', priceCurrency: 'USD' });
    expect(application.softwareVersion).toBe('3.2.2');
    expect(application.aggregateRating).toMatchObject({ ratingValue: 5, ratingCount: 264 });
    expect(rating).toEqual({ value: 5, count: 264 });
    expect(organization).toMatchObject({
      '@type': 'Organization',
      legalName: siteConfig.company.name,
      url: 'https://example.test/',
    });
    expect(application.publisher).toEqual({ '@id': organization['@id'] });
  });
});

describe('CI example', () => {
  it('uses the setup action with an access token from a secret and accepts the EULA', () => {
    expect(githubActionsWorkflow).toContain(`uses: ${siteConfig.links.setupAction}`);
    // The argument the licence e-mail names; the licence key stays out of pipelines (decision 217).
    expect(githubActionsWorkflow).toContain(
      '--checkOnly --access-token ${{ secrets.ORGSMITH_ACCESS_TOKEN }}',
    );
    expect(githubActionsWorkflow).not.toContain(siteConfig.ci.licenseKeyVariable);
    expect(githubActionsWorkflow).toContain(`${siteConfig.ci.eulaAcceptanceVariable}: 'true'`);
    expect(githubActionsWorkflow).toContain('--checkOnly');
  });
});

describe.each([
  ['EULA', eula],
  ['privacy policy', privacyPolicy],
])('%s', (_, document) => {
  it('is version 1 of 2021-07-31 with unique section anchors', () => {
    expect(document.version).toBe(1);
    expect(document.date).toBe('2021-07-31');
    const ids = document.sections.map((section) => section.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z-]*$/);
  });

  it('refers only to sections that exist', () => {
    for (const match of fullText(document).matchAll(/section (\d+)/g)) {
      expect(Number(match[1])).toBeLessThanOrEqual(document.sections.length);
    }
  });

  it('uses only characters the PDF font can show', () => {
    const headings = document.sections.map((section) => section.heading).join(' ');
    expect(
      missingGlyphs(`${document.title} ${document.subtitle} ${headings} ${fullText(document)}`),
    ).toEqual([]);
  });
});

describe('EULA facts (docs/product-rules.md#behaviour, #validation, #permissions, #constants)', () => {
  const text = fullText(eula);
  const sectionNumber = (id: string) => eula.sections.findIndex((section) => section.id === id) + 1;

  it.each([
    ['licence per company', /licence is granted per company/],
    ['employees, affiliates, contractors', /employees[\s\S]*affiliates[\s\S]*contractors/],
    ['no licence for several clients', /may not use one licence for several clients/],
    ['key for every use', /Every use of the Software requires a valid licence key/],
    ['three licence types', /three types of licence: Trial, Free and Paid/],
    [
      'trial terms',
      /two months, without limits[\s\S]*valid e-mail address that has not been used for any earlier licence/,
    ],
    ['Starter with 2 orgs', /Starter Edition\): [^.]*up to 2 Salesforce orgs/],
    ['billed in advance, no refunds', /billed in advance, monthly or yearly[\s\S]*not refunded/],
    [
      'lapsed payment',
      /deactivated[\s\S]*within 2 months[\s\S]*marked for deletion[\s\S]*within one further month/,
    ],
    [
      'cancellation',
      /end of the current billing period[\s\S]*Free licence can be cancelled at any time with immediate effect/,
    ],
    ['plan changes', /take effect immediately[\s\S]*prorated/],
    ['2 weeks notice', /at least 2 weeks in advance/],
    [
      'licence data',
      /e-mail address, the licence key and the expiration date[\s\S]*subscription status, the product and quantity, and the customer ID and subscription ID/,
    ],
  ])('states: %s', (_, pattern) => {
    expect(text).toMatch(pattern);
  });

  it('cross-references the right sections', () => {
    expect(sectionNumber('licence-grant')).toBe(2);
    expect(sectionNumber('cancellation')).toBe(7);
    expect(sectionNumber('licence-data')).toBe(10);
    expect(sectionNumber('support')).toBe(11);
  });

  it('is published as a versioned PDF', () => {
    expect(eulaPdfPath).toBe(`/eula/${siteConfig.cliName}-cli-eula-v1.pdf`);
  });
});

describe('privacy facts (docs/product-rules.md#pages, #constants)', () => {
  const text = fullText(privacyPolicy);
  it.each([
    ['licences', /licence key and the expiration date/],
    ['contact messages', /contact form/],
    ['payments', /card payment provider/],
    ['e-mail delivery', /e-mail delivery service/],
    [
      'consent and dismissed cookies for 3650 days',
      /consent cookie[\s\S]*dismissed cookie|3650 days/,
    ],
    ['analytics only with consent', /ad storage and analytics storage are denied by default/],
    ['server logs 7 days', /deleted within 7 days/],
    ['retention 2 months plus up to 1 month', /2 months[\s\S]*within up to 1 further month/],
    ['rights', /Art\. 15 GDPR[\s\S]*Art\. 21 GDPR/],
    ['contact', new RegExp(siteConfig.supportEmail.replace('.', '\\.'))],
  ])('covers: %s', (_, pattern) => {
    expect(text).toMatch(pattern);
  });
  it('names 3650 days and both banner cookies', () => {
    expect(text).toContain('3650 days');
    expect(text).toMatch(/consent cookie/);
    expect(text).toMatch(/dismissed cookie/);
  });
});

describe('imprint', () => {
  it('has English and German versions with every company fact of the site config', () => {
    expect(imprint.map((version) => version.label)).toEqual(['English', 'Deutsch']);
    const { company } = siteConfig;
    for (const version of imprint) {
      const text = version.groups
        .flatMap((group) => group.lines.map((line) => line.value))
        .join(' ');
      for (const fact of [
        company.name,
        company.street,
        company.postalCode,
        company.city,
        company.managingDirector,
        company.registerCourt,
        company.registerNumber,
        company.vatId,
        company.phone,
      ]) {
        expect(text, `${version.key}: ${fact}`).toContain(fact);
      }
    }
  });
});
