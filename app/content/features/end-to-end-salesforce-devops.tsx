import { Link } from 'react-router';
import { siteConfig } from '#shared/site-config.ts';
import { pages } from '#app/pages.ts';
import { HowItWorksDiagram } from '../diagrams/HowItWorksDiagram.tsx';
import type { FeaturePageContent } from '#app/components/content/FeaturePage.tsx';

const cli = siteConfig.cliName;

export const endToEndContent: FeaturePageContent = {
  eyebrow: 'End-to-end Salesforce DevOps',
  summary: `${siteConfig.productName} models your Salesforce landscape the way your team already talks about it: environments that pair an org with a branch, stacks that group them around one production org, and three flows that move metadata into Git, out to the orgs and from one environment to the next.`,
  highlights: [
    'Org ⇄ branch environments',
    'Inbound, outbound and merge flows',
    'Sandboxes from the same CLI',
  ],
  sections: [
    {
      id: 'environments',
      heading: 'Environments: an org paired with a branch',
      body: (
        <>
          <p>
            An environment is one Salesforce org — a sandbox or production — paired with one Git
            branch. The pairing is the contract: the branch holds what the org should contain, and
            the org is where that branch’s metadata runs.
          </p>
          <p>
            Developer sandboxes, QA, UAT and production each get their own branch, so the history of
            every org is a commit log you can read, review and compare. Create one with{' '}
            <code>env:create</code>, check it with <code>env:test</code>, and tag it with{' '}
            <code>env:tags:set</code> so scripts and pipelines can pick environments by role instead
            of by name.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'environment commands',
        language: 'shell',
        code: `$ ${cli} env:create --name qa --branchName qa
✔ Environment qa ready: org qa ⇄ branch qa

$ ${cli} env:list
ENVIRONMENT  ORG                       BRANCH     TAGS
prod         admin@acme.com            main       production
uat          admin@acme.com.uat        uat        release
qa           admin@acme.com.qa         qa         testing
dev-maria    maria@acme.com.devmaria   dev-maria`,
      },
    },
    {
      id: 'stacks',
      heading: 'Stacks: one production org, one repository, one configuration',
      body: (
        <>
          <p>
            A stack groups the environments that belong together. They share one production org, one
            Git repository and one flow configuration — the include filter that selects the
            metadata, the API version and the deployment settings — so every environment of a stack
            follows the same rules.
          </p>
          <p>
            Most teams need a single stack. A company with a separate production org per business
            unit, or a consultancy team working on its own product org, keeps one stack per
            production org, each with its own repository. <code>stack:setdefault</code> picks the
            one your commands use when you do not name it.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'stack commands',
        language: 'shell',
        code: `$ ${cli} stack:create --name acme
✔ Stack acme created with environment prod ⇄ branch main

$ ${cli} stack:setdefault --name acme
$ ${cli} stack:list
STACK        PRODUCTION ORG        REPOSITORY                   ENVIRONMENTS
acme *       admin@acme.com        github.com/acme/salesforce   4
acme-emea    admin@acme-emea.com   github.com/acme/sf-emea      3`,
      },
    },
    {
      id: 'flows',
      heading: 'Three flows: inbound, outbound and merge',
      body: (
        <>
          <p>Everything that moves metadata is one of three flows:</p>
          <ul>
            <li>
              <strong>Inbound</strong> (<code>flow:in</code>) detects what changed in the org since
              the last sync, retrieves exactly that and commits it to the environment’s branch.
              Changes clicked together in Setup become commits your team can review.
            </li>
            <li>
              <strong>Outbound</strong> (<code>flow:out</code>) compares the branch with the org and
              deploys the difference. Components that fail are excluded and the rest retried, so one
              broken layout does not hold back forty good changes. Add <code>--checkOnly</code> to
              validate without changing the org.
            </li>
            <li>
              <strong>Merge</strong> (<code>flow:merge --from qa --into uat</code>) syncs the target
              org, merges the branches in Git and deploys the result — one atomic operation that
              changes nothing if any part fails or is cancelled.
            </li>
          </ul>
        </>
      ),
      example: {
        kind: 'figure',
        figure: <HowItWorksDiagram />,
        caption:
          'Each environment pairs an org with a branch. Inbound and outbound flows keep the two in step; merge flows promote one environment into the next.',
      },
    },
    {
      id: 'sandboxes',
      heading: 'Sandbox management',
      body: (
        <>
          <p>
            A new environment usually starts with a new sandbox. The toolbox sandbox commands list,
            create and delete the sandboxes of your production org from the same command line, so a
            feature environment is a script rather than a ticket: create the sandbox, pair it with a
            branch, and run an outbound flow to bring it to the state of Git.
          </p>
          <p>
            Listing sandboxes works in every edition; creating and deleting them is part of Pro and
            higher. See the{' '}
            <Link to={`${pages.featureToolbox.path}#toolbox`}>toolbox commands</Link> for the
            details.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'sandbox commands',
        language: 'shell',
        code: `$ ${cli} toolbox:sandbox:list
NAME        TYPE           STATUS      LAST REFRESH
uat         Partial Copy   Completed   2025-06-02
qa          Developer Pro  Completed   2025-05-19
devmaria    Developer      Completed   2025-05-30

$ ${cli} toolbox:sandbox:create --name feature42
✔ Sandbox feature42 requested (Developer)

$ ${cli} env:create --name feature42 --branchName feature42
$ ${cli} flow:out --environment feature42`,
      },
    },
    {
      id: 'all-commands',
      heading: 'Seventeen commands, one vocabulary',
      body: (
        <>
          <p>
            Stacks, environments, flows and credentials each have a small set of commands —{' '}
            <code>stack:*</code>, <code>env:*</code>, <code>flow:*</code> and <code>auth:*</code> —
            that share the same options: <code>--name</code>, <code>--branchName</code>,{' '}
            <code>--environment</code>, <code>--from</code>, <code>--into</code> and{' '}
            <code>--checkOnly</code>. Learn them once and every step from the first sandbox to
            production reads the same.
          </p>
          <p>
            <Link to={`${pages.featureToolbox.path}#command-reference`}>
              Read the command reference
            </Link>{' '}
            for a line on each command and option, or the{' '}
            <a href={siteConfig.links.docs}>documentation</a> for every detail.
          </p>
        </>
      ),
    },
  ],
  tryNow: {
    heading: 'Put your first environment under version control',
    text: 'The free trial runs for two months with every feature and no credit card. Create a stack, pair a sandbox with a branch and run your first inbound flow today.',
  },
};
