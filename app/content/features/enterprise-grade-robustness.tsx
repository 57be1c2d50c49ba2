import { Link } from 'react-router';
import { siteConfig } from '#shared/site-config.ts';
import { pages } from '#app/pages.ts';
import { requirements } from '../product-facts.ts';
import type { FeaturePageContent } from '#app/components/content/FeaturePage.tsx';

const cli = siteConfig.cliName;

/** The page's content; the sample `--version` output shows the newest released version. */
export const robustnessContent = (version: string): FeaturePageContent => ({
  eyebrow: 'Enterprise-grade robustness',
  summary: `Deployments are where a tool earns trust. ${siteConfig.productName} keeps credentials encrypted under your own key, runs every flow as an atomic operation, retries what fails for reasons outside your control, and runs on every platform ${requirements.dotnet} supports.`,
  highlights: [
    'Encrypted credentials, local or cloud',
    'Atomic operations and retries',
    'Windows, macOS, Linux and Docker',
  ],
  sections: [
    {
      id: 'credentials',
      heading: 'Credentials encrypted with your key',
      body: (
        <>
          <p>
            {siteConfig.productName} never stores a Salesforce or Git credential in clear text.
            Create an encryption key with <code>auth:key:create</code>, then save org logins with{' '}
            <code>auth:salesforce:save</code> and repository credentials with{' '}
            <code>auth:git:save</code>. They are encrypted with your key and kept either on the
            machine or in a cloud state store that your team and your pipelines share.
          </p>
          <p>
            On a new laptop or CI runner, <code>auth:key:save</code> adds the key and everything
            stored becomes usable; without the key, the stored data is useless to anyone who copies
            it. To rotate, create a new key and save the credentials again.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'credential commands',
        language: 'shell',
        code: `$ ${cli} auth:key:create
✔ Key created. Keep a copy in your password manager or CI secrets.

$ ${cli} auth:salesforce:save --environment prod
→ Log in as admin@acme.com in the browser window …
✔ Credentials for prod saved (encrypted)

$ ${cli} auth:git:save
✔ Credentials for github.com/acme/salesforce saved (encrypted)

# on a CI runner or a colleague's laptop
$ ${cli} auth:key:save`,
      },
    },
    {
      id: 'atomic-operations',
      heading: 'Atomic operations',
      body: (
        <>
          <p>
            A flow either completes or leaves everything as it was. {siteConfig.productName}{' '}
            prepares the work in a temporary workspace, pushes to Git only after the org has
            accepted the deployment, and cleans up after a failure or a cancellation.
          </p>
          <p>
            A merge flow that fails on a test leaves the target branch and org untouched; an
            interrupted inbound flow leaves no half-written commit behind. Together with one branch
            per environment, every org is always at a known commit.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'a cancelled merge flow',
        language: 'shell',
        code: `$ ${cli} flow:merge --from uat --into prod
→ Inbound  prod: no changes
→ Merge    uat into main: 16 components
→ Outbound prod: deploying 16 components
^C
✖ Cancelled: deployment aborted, merge discarded
  main is still at 5b20e77, prod was not modified`,
      },
    },
    {
      id: 'retries',
      heading: 'Retries for failures that are not yours',
      body: (
        <>
          <p>
            Salesforce APIs time out, orgs hit their limit of concurrent requests, a Git host has a
            bad minute, a Metadata API job waits in the queue. {siteConfig.productName} retries
            these transient failures with increasing waits and keeps polling long-running jobs until
            they finish.
          </p>
          <p>
            Real errors — a failing test, a reference to a missing field — are reported at once and
            never retried. Your pipeline turns red only for reasons that need a person.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'automatic retries',
        language: 'shell',
        code: `→ Retrieving batch 2/3 …
  Metadata API: REQUEST_LIMIT_EXCEEDED, retrying in 5 s (attempt 2 of 5)
  Metadata API: job queued, checking again in 10 s
  batch 2/3   9,981 components   ✔
→ Pushing to github.com/acme/salesforce …
  connection reset, retrying in 2 s (attempt 2 of 5)
✔ Pushed a3f9c21 to uat`,
      },
    },
    {
      id: 'requirements',
      heading: 'Requirements',
      body: (
        <>
          <ul>
            <li>
              An operating system supported by {requirements.dotnet}: current versions of Windows,
              macOS and Linux. Installers and archives are on the{' '}
              <Link to={pages.download.path}>download page</Link>; Docker images cover{' '}
              {siteConfig.ci.dockerPlatforms.join(' and ')}.
            </li>
            <li>{requirements.git}.</li>
            <li>A Salesforce org with the Metadata API: {requirements.salesforceEditions}.</li>
            <li>
              A Git repository on any host: GitHub, GitLab, Bitbucket, Azure Repos or your own
              server.
            </li>
            <li>
              A licence key: the free Starter edition, a two-month trial, or Pro and Enterprise (see{' '}
              <Link to={pages.pricing.path}>pricing</Link>).
            </li>
          </ul>
        </>
      ),
      example: {
        kind: 'code',
        label: 'requirement checks',
        language: 'shell',
        code: `$ git --version
git version 2.45.2

$ ${cli} --version
${cli} ${version}

$ ${cli} env:test --environment prod
✔ Login       admin@acme.com (Enterprise Edition)
✔ Metadata API available, API version 63.0
✔ Repository  github.com/acme/salesforce, branch main`,
      },
    },
  ],
  tryNow: {
    heading: 'Test it against your own orgs',
    text: 'The free trial has no limits for two months. Run it on a laptop, in Docker or in your pipeline and see how it handles your largest org.',
  },
});
