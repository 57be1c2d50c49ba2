import { Link } from 'react-router';
import { siteConfig } from '#shared/site-config.ts';
import { pages } from '#app/pages.ts';
import { ToolboxTable } from '#app/components/content/CommandReference.tsx';
import { EditionBadge } from '#app/components/content/EditionBadge.tsx';
import { toolboxCommands } from '../commands.ts';
import type { FeaturePageContent } from '#app/components/content/FeaturePage.tsx';

const cli = siteConfig.cliName;

export const toolboxContent: FeaturePageContent = {
  eyebrow: 'Toolbox commands',
  summary: `The flows are built from smaller steps: retrieve, normalize, prune, diff, deploy, commit. The toolbox gives you each step as a command of its own — for scripts, for investigations and for the cases a flow does not cover.`,
  highlights: [
    `${toolboxCommands.length} toolbox commands`,
    'Read-only tools in every edition',
    'Changes to orgs in Pro and higher',
  ],
  sections: [
    {
      id: 'toolbox',
      heading: 'Every toolbox command',
      body: (
        <>
          <p>
            Commands that only read an org or tidy up local files work in every edition, Starter
            included. Commands that change an org, a branch or your set of sandboxes are part of Pro
            and Enterprise, together with metadata rollback and Apex test automation — they are
            marked <EditionBadge edition="pro" />. The free trial includes all of them.
          </p>
          <ToolboxTable commands={toolboxCommands} />
        </>
      ),
    },
    {
      id: 'investigate',
      heading: 'Investigate: diff and stats',
      body: (
        <>
          <p>
            Before a release, <code>toolbox:diff</code> shows what a merge would change, component
            by component, without touching anything. It compares any two sources — an org, a branch
            or a folder — and lists what was added, changed and deleted.
          </p>
          <p>
            <code>toolbox:stats</code> counts the components of an org or branch by type. It tells
            you how large a full retrieval will be, which types dominate your org, and whether your
            include filter still selects what you think it does.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'diff and stats commands',
        language: 'shell',
        code: `$ ${cli} toolbox:diff --from uat --into prod
TYPE          NAME                            CHANGE
ApexClass     InvoiceService                  modified
CustomField   Invoice__c.Discount_Reason__c   added
Flow          Invoice_Approval                modified
ApexClass     InvoiceLegacyHelper             deleted
4 components differ

$ ${cli} toolbox:stats --environment prod
TYPE            COMPONENTS
Report               8,412
CustomField          3,977
Layout                 611
ApexClass              544
…
Total               23,418   (3 retrieval batches)`,
      },
    },
    {
      id: 'build-blocks',
      heading: 'Build your own steps: retrieve, normalize, prune, manifest',
      body: (
        <>
          <p>
            The building blocks of the inbound flow are yours to combine. Retrieve a complete copy
            of production for an audit, normalize and prune it the same way the flows do, and write
            a <code>package.xml</code> for another tool — or a <code>destructiveChanges.xml</code>{' '}
            from a diff.
          </p>
          <p>
            Every step honours the include filter and the batching past the Metadata API limit, so a
            script gets the same results as a flow.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'a scripted audit copy',
        language: 'shell',
        code: `# A normalized copy of production and its manifest
$ ${cli} toolbox:retrieve --environment prod
$ ${cli} toolbox:normalize
$ ${cli} toolbox:prune
$ ${cli} toolbox:manifest
✔ Wrote manifest/package.xml (23,418 members)`,
      },
    },
    {
      id: 'change-orgs',
      heading: 'Change orgs deliberately: deploy, apply, commit',
      body: (
        <>
          <p>
            <EditionBadge edition="pro" />
          </p>
          <p>
            <code>toolbox:apply</code> replays the changes between two commits into an org: it
            deploys what changed and deletes what was removed. That brings a hotfix into a sandbox
            without merging branches. <code>toolbox:deploy</code> deploys a folder or manifest as it
            is, with <code>--checkOnly</code> for a validation, and <code>toolbox:commit</code>{' '}
            records a manual retrieval on an environment’s branch with a message listing every
            component.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'apply command',
        language: 'shell',
        code: `$ ${cli} toolbox:apply --environment qa 5b20e77..7c1e0d4
→ Between 5b20e77 and 7c1e0d4: 16 changed, 1 deleted
✔ Deployed 16 components and deleted 1 in org qa`,
      },
    },
  ],
  tryNow: {
    heading: 'Every command, free for two months',
    text: (
      <>
        The trial includes the whole toolbox. Afterwards, the read-only commands stay free with
        Starter; compare the editions on the <Link to={pages.pricing.path}>pricing page</Link>.
      </>
    ),
  },
};
