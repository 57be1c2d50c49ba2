import { siteConfig } from '#shared/site-config.ts';
import { EditionBadge } from '#app/components/content/EditionBadge.tsx';
import { PromotionDiagram } from '../diagrams/PromotionDiagram.tsx';
import type { FeaturePageContent } from '#app/components/content/FeaturePage.tsx';

const cli = siteConfig.cliName;

export const devopsDnaContent: FeaturePageContent = {
  eyebrow: 'True DevOps DNA',
  summary: `${siteConfig.productName} treats Git as the source of truth for your Salesforce metadata. Every org has a branch, every change is a commit and every promotion is a merge — with the guarantees you expect from a real DevOps toolchain: atomic operations, rollback and branch switching.`,
  highlights: ['Git is the source of truth', 'Atomic merge flow', 'Rollback and branch switching'],
  sections: [
    {
      id: 'git-source-of-truth',
      heading: 'Git is the source of truth',
      body: (
        <>
          <p>
            What is in the branch is what should be in the org. Changes made in Setup are pulled
            into Git by the inbound flow, so nothing bypasses version control — not even a quick fix
            in production on a Friday afternoon.
          </p>
          <p>
            Your Git tooling keeps working as it does for code: pull requests and reviews, blame and
            history, branch protection rules, signed commits and any Git host. Auditors get a
            complete, timestamped record of who changed what in which org.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'Git history of the production branch',
        language: 'shell',
        code: `$ git log --oneline --graph main
*   7c1e0d4 Merge flow: uat into main (16 components)
|\\
| * 9e41b07 Inbound: 9 components from uat
| * a3f9c21 Inbound: 14 components from uat
|/
*   5b20e77 Merge flow: uat into main (9 components)`,
      },
    },
    {
      id: 'branch-per-environment',
      heading: 'One branch per environment',
      body: (
        <>
          <p>
            Each environment pairs its org with its own branch, so promotion follows your release
            path: dev into qa, qa into uat, uat into main for production. Every branch shows exactly
            what its org runs, and comparing two environments is a <code>git diff</code> between two
            branches.
          </p>
          <p>
            A hotfix made directly in production is committed to main by an inbound flow and merged
            back down the path, so lower environments do not drift away from what your customers
            use.
          </p>
        </>
      ),
      example: {
        kind: 'figure',
        figure: <PromotionDiagram />,
        caption:
          'Each org keeps its own branch in step through inbound and outbound flows; merge flows promote changes from one branch and org to the next.',
      },
    },
    {
      id: 'atomic-merge',
      heading: 'An atomic merge flow',
      body: (
        <>
          <p>
            <code>flow:merge</code> combines an inbound flow, a Git merge and an outbound deployment
            — three steps that can each fail. {siteConfig.productName} runs them as one operation:
            if the retrieval fails, the merge has a conflict, a test fails during the deployment or
            you press Ctrl+C, the target branch and the target org stay exactly as they were.
          </p>
          <p>
            No half-merged branch, no half-deployed org, no clean-up script. You fix the cause and
            run the same command again.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'a merge flow that fails safely',
        language: 'shell',
        code: `$ ${cli} flow:merge --from qa --into uat
→ Inbound  uat: no changes
→ Merge    qa into uat: 7 components, no conflicts
→ Outbound uat: deploying 7 components
  Apex tests: 41 passed, 1 failed
    InvoiceServiceTest.discountIsCapped: expected 20, got 25
✖ Merge flow failed in outbound: nothing was changed
  branch uat is still at 9e41b07, org uat was not modified`,
      },
    },
    {
      id: 'rollback',
      heading: 'Metadata rollback',
      body: (
        <>
          <p>
            <EditionBadge edition="pro" />
          </p>
          <p>
            Because every deployment is a commit, every earlier state of an org is a commit too.
            Rollback returns an org to the metadata of an earlier commit: it deploys what has
            changed since, removes components that were added after it, and records the rollback as
            a new commit, so the history stays honest about what happened.
          </p>
          <p>
            A release that broke a validation rule becomes a two-minute rollback instead of an
            evening of re-creating the old version by hand.
          </p>
        </>
      ),
      example: {
        kind: 'code',
        label: 'commits an org can be rolled back to',
        language: 'shell',
        code: `$ git log --oneline uat
7c1e0d4 Merge flow: qa into uat (16 components)   # broke a validation rule
9e41b07 Inbound: 9 components from uat
5b20e77 Merge flow: qa into uat (9 components)    # last known good state`,
        caption:
          'Rolling org uat back to 5b20e77 restores that commit’s metadata and adds the rollback as a new commit on top.',
      },
    },
    {
      id: 'branch-switching',
      heading: 'Branch switching',
      body: (
        <>
          <p>
            <EditionBadge edition="enterprise" />
          </p>
          <p>
            Sometimes an org has to follow another branch for a while: a release branch during a
            hardening week, a hotfix branch for production, or a long-running project in a full-copy
            sandbox. Branch switching pairs an environment with a different branch and brings its
            org in line with that branch — and switches back when you are done.
          </p>
          <p>
            The environment keeps its name, tags and stored credentials, so pipelines that address
            it keep working throughout.
          </p>
        </>
      ),
    },
  ],
  tryNow: {
    heading: 'Give your orgs a history',
    text: 'Try every feature free for two months, rollback and branch switching included. No credit card, no sales call.',
  },
};
