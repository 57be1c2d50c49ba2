import { siteConfig } from '#shared/site-config.ts';
import { accessTokenEmailBlocks } from '#server/licensing/access-tokens/emails/access-token-email-blocks.ts';
import type { EmailBlock } from '#server/platform/email/render-email.ts';

const { cliName, ci, links } = siteConfig;

/**
 * How a licence key is used, in every e-mail that carries one (decision 183): set once on a
 * computer in the variable the CLI reads, an access token for CI, the documentation. Only what the
 * spec and the site state: no CLI command stores a licence key (auth:key:save takes the
 * credentials' encryption key), and the access-token argument (`--access-token`, as on the
 * download page's CI examples, decision 217) replaced the key arguments in 3.2.1.
 */
export function keyUsageEmailBlocks(key: string, accountBaseUrl: string): EmailBlock[] {
  return [
    { kind: 'heading', text: 'Using your key' },
    {
      kind: 'paragraph',
      text: `Give it to the CLI once on each computer: every ${cliName} command reads it from the environment variable ${ci.licenseKeyVariable}. On macOS or Linux, add this line to your shell profile (~/.zshrc or ~/.bashrc):`,
    },
    { kind: 'code', text: `export ${ci.licenseKeyVariable}=${key}` },
    { kind: 'paragraph', text: 'On Windows, run this once in a terminal, then open a new one:' },
    { kind: 'code', text: `setx ${ci.licenseKeyVariable} ${key}` },
    ...accessTokenEmailBlocks(accountBaseUrl),
    {
      kind: 'paragraph',
      text: `Pipelines give the token to the CLI with its ${ci.accessTokenArgument} argument, which replaced the licence-key arguments in version 3.2.1. Keep the token in your CI's secret store (here ${ci.accessTokenSecret}) and pass it on each command:`,
    },
    {
      kind: 'code',
      text: `${cliName} flow:out --environment uat --checkOnly ${ci.accessTokenArgument} "$${ci.accessTokenSecret}"`,
    },
    {
      kind: 'note',
      text: 'Every command, option and CI set-up is described in the',
      link: { label: 'documentation', url: links.docs },
    },
  ];
}

/** Every licence-key e-mail points to the licence page (decision 229). */
export function licencePageEmailBlock(publicBaseUrl: string): EmailBlock {
  return {
    kind: 'note',
    text: 'See the orgs that use your licence, release one after a sandbox refresh and download your invoices on',
    link: { label: 'your licences page', url: `${publicBaseUrl}/licences` },
  };
}
