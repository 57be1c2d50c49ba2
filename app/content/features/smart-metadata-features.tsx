import { siteConfig } from '#shared/site-config.ts';
import { includeFilterPath } from '../product-facts.ts';
import type { FeaturePageContent } from '#app/components/content/FeaturePage.tsx';

const cli = siteConfig.cliName;

export const smartMetadataContent: FeaturePageContent = {
  eyebrow: 'Smart metadata',
  summary: `Salesforce metadata is large, noisy and full of limits. ${siteConfig.productName} lets an include filter in your repository decide what flows, retrieves past the 10,000-component limit, touches only what changed, keeps diffs readable and gets deployments over the line.`,
  highlights: [
    'Include filter versioned in Git',
    'Batching past 10,000 components',
    'Partial deployments that finish',
  ],
  sections: [
    {
      id: 'include-filter',
      heading: 'An include filter decides what flows',
      body: (
        <>
          <p>
            One file in your repository, <code>{includeFilterPath}</code>, lists the metadata types
            and members that belong in version control. Everything else stays out of Git and out of
            deployments: managed-package components, reports in private folders, the standard
            objects you never customise.
          </p>
          <p>
            Because the filter lives in the repository, changes to it are reviewed in pull requests
            like any other change, it has a history, and every environment of a stack applies the
            same rules. Wildcards keep it short; an exclude list carves out what a wildcard would
            otherwise take in.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'include filter',
        language: 'yaml',
        code: `# ${includeFilterPath}: what flows between orgs and Git
include:
  ApexClass: ['*']
  ApexTrigger: ['*']
  CustomObject: ['Account', 'Opportunity', 'Invoice__c']
  Flow: ['*']
  Layout: ['Account-*', 'Invoice__c-*']
  LightningComponentBundle: ['*']
  PermissionSet: ['*']
  Profile: ['Admin', 'Sales User']
exclude:
  ApexClass: ['fflib_*']   # vendored library, versioned elsewhere
  Flow: ['Legacy_*']`,
      },
    },
    {
      id: 'batching',
      heading: 'Past the Metadata API limit of 10,000 components',
      body: (
        <>
          <p>
            The Metadata API returns at most 10,000 components per retrieval. Mature orgs pass that
            quickly: thousands of reports, custom fields and translations add up. A plain retrieve
            then fails, and teams end up maintaining several manifests by hand.
          </p>
          <p>
            {siteConfig.productName} counts what the include filter selects, splits it into batches
            below the limit, retrieves them one after another and merges the results into one
            consistent source tree. You keep one filter; the batching is invisible unless you look
            for it.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'batched retrieval',
        language: 'shell',
        code: `$ ${cli} toolbox:retrieve --environment prod
→ 23,418 components selected by ${includeFilterPath}
→ Metadata API limit 10,000 per retrieval: 3 batches
  batch 1/3   9,996 components   ✔
  batch 2/3   9,981 components   ✔
  batch 3/3   3,441 components   ✔
✔ Retrieved 23,418 components into force-app/`,
      },
    },
    {
      id: 'change-detection',
      heading: 'Change detection: retrieve what changed, not everything',
      body: (
        <>
          <p>
            An inbound flow first works out what changed in the org since the last synced commit,
            from the modification dates Salesforce keeps for each component. Only those components
            are retrieved, so syncing a busy sandbox takes seconds instead of a full retrieval of
            the org.
          </p>
          <p>
            Deletions are detected too and become deletions in Git, so a field removed in Setup
            disappears from the branch instead of coming back with the next deployment.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'inbound flow with change detection',
        language: 'shell',
        code: `$ ${cli} flow:in --environment qa
→ Last sync: commit 5b20e77
→ Changed since then: 6 modified, 2 added, 1 deleted
    modified  Flow          Invoice_Approval
    modified  Layout        Invoice__c-Invoice Layout
    added     CustomField   Invoice__c.Discount_Reason__c
    deleted   ApexClass     InvoiceLegacyHelper
    …
✔ Committed 9e41b07 to qa: "Inbound: 9 components"`,
      },
    },
    {
      id: 'normalization',
      heading: 'Normalization and pruning: diffs that mean something',
      body: (
        <>
          <p>
            Salesforce returns the same metadata in different orders and shapes depending on the org
            and the API version. {siteConfig.productName} normalizes every file into one canonical
            form — elements sorted, formatting consistent — so a diff shows only what someone
            actually changed.
          </p>
          <p>
            Pruning then removes what the include filter leaves out, such as profile and
            permission-set entries for excluded objects, and drops files that end up empty.
            Reviewers read six meaningful lines instead of three hundred shuffled ones.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'diff statistics before and after normalization',
        language: 'shell',
        code: `# The same inbound sync of the Admin profile
# raw retrieval: the org re-ordered the file
profiles/Admin.profile-meta.xml  | 318 +++++++++++++----------

# with ${siteConfig.productName}: normalized and pruned
profiles/Admin.profile-meta.xml  |   6 ++++++`,
      },
    },
    {
      id: 'partial-deployments',
      heading: 'Partial deployments by exclude-and-retry',
      body: (
        <>
          <p>
            A Salesforce deployment is all or nothing: one reference to a missing field fails the
            other two hundred components. Outbound flows work in a loop instead — deploy, read the
            component failures, exclude the failing components and what depends on them, and retry
            the rest.
          </p>
          <p>
            The deployment finishes with everything that can go in, and the report names exactly
            what was left out and why. You fix one thing instead of hunting through a failed run.
            With <code>--checkOnly</code> the same loop runs as a validation and the org stays as it
            is.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'outbound flow with exclude-and-retry',
        language: 'shell',
        code: `$ ${cli} flow:out --environment uat
→ 212 components differ between branch uat and org uat
→ Attempt 1: 2 components failed
    Layout     Invoice__c-Invoice Layout   no such field Discount_Reason__c
    FlexiPage  Invoice_Record_Page         depends on the layout above
→ Attempt 2: excluding 2 components, deploying 210
✔ Deployed 210 of 212 components; 2 excluded (listed above)`,
      },
    },
  ],
  tryNow: {
    heading: 'See your own org through the include filter',
    text: 'Start the free two-month trial, point it at a sandbox and watch a full retrieval, batched and normalized, land in a branch.',
  },
};
