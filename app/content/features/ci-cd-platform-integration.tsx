import { Link } from 'react-router';
import { siteConfig } from '#shared/site-config.ts';
import { pages } from '#app/pages.ts';
import { dockerRunExample, githubActionsWorkflow, gitlabCiExample } from '../ci-examples.ts';
import type { FeaturePageContent } from '#app/components/content/FeaturePage.tsx';

const { ci, links, cliName } = siteConfig;
const platforms = ci.dockerPlatforms.join(' and ');

/** The page's content; Docker examples pin the newest released version. */
export const ciCdContent = (version: string): FeaturePageContent => ({
  eyebrow: 'CI/CD platform integration',
  summary: `${siteConfig.productName} is one command-line tool, so it runs wherever your pipelines run. Use the GitHub Actions setup action, pull the Docker image for ${platforms}, or install it on any runner — and validate every pull request with --checkOnly before anything reaches an org.`,
  highlights: [
    'GitHub Actions setup action',
    `Docker for ${platforms}`,
    '--checkOnly validation runs',
  ],
  sections: [
    {
      id: 'github-actions',
      heading: 'GitHub Actions with the setup action',
      body: (
        <>
          <p>
            The <a href={links.ciMarketplaceAction}>setup action</a>{' '}
            <code>{links.setupAction}</code> installs the CLI on the runner. Each command gets an
            access token through the CLI&apos;s <code>{ci.accessTokenArgument}</code> argument, not
            your licence key: keep the token in an encrypted repository or organisation secret, here{' '}
            <code>{ci.accessTokenSecret}</code>; GitHub masks it in every log, and you can revoke it
            without changing the key.
          </p>
          <p>
            Set <code>{ci.eulaAcceptanceVariable}</code> to <code>true</code> to accept the{' '}
            <Link to={pages.eula.path}>licence agreement</Link> for unattended runs. Without it the
            CLI stops to ask, and a runner cannot answer.
          </p>
          <p>
            This workflow validates every pull request into <code>uat</code> and deploys when the
            pull request is merged. The credentials key unlocks the org and Git logins you stored
            with <code>auth:salesforce:save</code> and <code>auth:git:save</code>.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'GitHub Actions workflow',
        language: 'yaml',
        code: githubActionsWorkflow,
        caption: '.github/workflows/salesforce-uat.yml',
      },
    },
    {
      id: 'docker',
      heading: `Docker images for ${platforms}`,
      body: (
        <>
          <p>
            The <a href={links.containerRegistry}>{links.dockerImage}</a> image contains the CLI and
            Git with {cliName} as its entry point. It is published for {platforms} under each
            version tag, so the same pipeline runs on x64 runners and on ARM hosts such as AWS
            Graviton or Apple silicon build machines.
          </p>
          <p>
            Pin a version tag in pipelines, mount the repository as the working directory and pass
            an access token from your secret store with <code>{ci.accessTokenArgument}</code>.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'Docker command',
        language: 'shell',
        code: dockerRunExample(version),
      },
    },
    {
      id: 'any-ci',
      heading: 'Any CI system',
      body: (
        <>
          <p>
            GitLab CI, Bitbucket Pipelines, Azure Pipelines, Jenkins, TeamCity or a cron job on a
            build host: if it runs a container or a shell command, it runs {siteConfig.productName}.
            There is no server to install and no webhook to configure — the pipeline calls the same
            commands you use on your laptop.
          </p>
          <p>
            Installers for Windows, macOS and Linux are on the{' '}
            <Link to={pages.download.path}>download page</Link>, and the{' '}
            <a href={links.demoRepository}>demo repository</a> shows complete pipelines to copy.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'GitLab CI job',
        language: 'yaml',
        code: gitlabCiExample(version),
      },
    },
    {
      id: 'check-only',
      heading: 'Validation runs with --checkOnly',
      body: (
        <>
          <p>
            <code>--checkOnly</code> runs an outbound or merge flow as a validation: Salesforce
            compiles the changes, checks dependencies and runs the Apex tests, then discards the
            deployment. Nothing is saved in the org and nothing is pushed to Git.
          </p>
          <p>
            Run it on every pull request and make it a required status check. Reviewers see whether
            a change deploys before they approve it, and release day stops being the first time the
            deployment is tried.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'a check-only merge flow',
        language: 'shell',
        code: `$ ${cliName} flow:merge --from qa --into uat --checkOnly
→ Inbound  uat: no changes
→ Merge    qa into uat: 7 components (check only, not pushed)
→ Outbound uat: validating 7 components (org unchanged)
  Apex tests: 42 passed, 0 failed (coverage 86%)
✔ Validation succeeded; nothing was changed`,
      },
    },
  ],
  tryNow: {
    heading: 'Wire it into your pipeline today',
    text: 'Start a free two-month trial, put an access token in a secret and let your next pull request validate itself.',
  },
});
