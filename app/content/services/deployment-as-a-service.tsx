import { Link } from 'react-router';
import { siteConfig } from '#shared/site-config.ts';
import { pages } from '#app/pages.ts';
import type { ServicePageContent } from '#app/components/content/ServicePage.tsx';

const product = siteConfig.productName;

export const deploymentAsAServiceContent: ServicePageContent = {
  eyebrow: 'Service · design, build and operate',
  summary: `We design your Salesforce release pipeline on ${product}, build it around your orgs and branches, and then run it for you: releases, sandbox refreshes, monitoring and upgrades. Your team keeps building features; we keep the path to production working.`,
  deliverables: {
    intro:
      'One team is responsible for your pipeline from the first workshop to every release after it.',
    items: [
      {
        title: 'A pipeline design',
        text: 'Environment and branch model, promotion path, include filter, review and approval rules — written down in a design record your auditors can read.',
      },
      {
        title: 'Stacks and CI, built',
        text: 'Stacks and environments for every org, credentials encrypted in a cloud state store under your key, CI workflows that validate every pull request with --checkOnly.',
      },
      {
        title: 'Releases, operated',
        text: 'We run the merge flows to UAT and production on your release calendar, resolve failed validations and excluded components, and report on each release.',
      },
      {
        title: 'Sandboxes kept in step',
        text: 'After every refresh we bring sandboxes back to the state of their branch, and we set up environments for new developers and projects.',
      },
      {
        title: 'Monitoring and upgrades',
        text: `We watch every pipeline run, keep ${product} and the Salesforce API version current, and send a monthly report with release times, failures and recommendations.`,
      },
    ],
  },
  phases: {
    intro: 'A fixed-scope start, then an ongoing service you can adjust every month.',
    items: [
      {
        title: 'Discovery',
        duration: '1–2 weeks',
        text: 'Workshops with admins, developers and release managers. We take stock of your orgs, sandboxes and metadata volume and of how you release today.',
      },
      {
        title: 'Design',
        duration: '1–2 weeks',
        text: 'We propose the environment and branch model, the include filter, promotion rules and CI design, review them with your team and agree them in writing.',
      },
      {
        title: 'Build',
        duration: '2–4 weeks',
        text: 'Stacks, environments, credentials and pipelines go live. Inbound flows baseline every org in Git, and trial releases run as --checkOnly validations first.',
      },
      {
        title: 'Operate',
        duration: 'monthly',
        text: 'We run your releases and the pipeline. A monthly review adjusts the scope as your org, your team and your release cadence change.',
      },
    ],
  },
  audience: {
    intro:
      'Deployment as a Service fits teams that want Git-based releases without building a DevOps function first:',
    fits: [
      'Salesforce teams without a dedicated release manager or DevOps engineer',
      'Admins and developers who should spend their time on features, not on deployments',
      'Orgs with frequent releases across several sandboxes, where change sets no longer keep up',
      'Regulated businesses that need an auditable change history and a documented release process',
    ],
    alternative: (
      <>
        Prefer to run the pipeline yourselves?{' '}
        <Link to={pages.serviceDesignBuild.path}>Design &amp; Build</Link> delivers the same
        pipeline and hands it over to your team.
      </>
    ),
  },
  faq: [
    {
      title: `Do we need our own ${product} licence?`,
      body: (
        <p>
          Yes. The pipeline runs on your licence, so everything we build stays yours. Pro covers
          most teams; Enterprise adds branch switching and the support SLA. See{' '}
          <Link to={pages.pricing.path}>pricing</Link>.
        </p>
      ),
      answerText: `Yes. The pipeline runs on your licence, so everything we build stays yours. Pro covers most teams; Enterprise adds branch switching and the support SLA.`,
    },
    {
      title: 'Who has access to our orgs?',
      body: (
        <p>
          Credentials are stored encrypted in your cloud state store under a key you control. Our
          engineers work through named integration users with the permissions agreed in the design,
          and you can revoke them at any time.
        </p>
      ),
      answerText:
        'Credentials are stored encrypted in your cloud state store under a key you control. Our engineers work through named integration users with the permissions agreed in the design, and you can revoke them at any time.',
    },
    {
      title: 'Can we take over the pipeline later?',
      body: (
        <p>
          Yes. Everything lives in your repository and your CI. Taking over is a handover like the
          one at the end of Design &amp; Build: runbooks, training and a few releases run together.
        </p>
      ),
      answerText:
        'Yes. Everything lives in your repository and your CI. Taking over is a handover like the one at the end of Design & Build: runbooks, training and a few releases run together.',
    },
    {
      title: 'How is it priced?',
      body: (
        <p>
          A fixed fee for discovery, design and build, then a monthly fee for operation that depends
          on the number of environments and how often you release. We quote after the first call.
        </p>
      ),
      answerText:
        'A fixed fee for discovery, design and build, then a monthly fee for operation that depends on the number of environments and how often you release. We quote after the first call.',
    },
  ],
  getInTouch: {
    heading: 'Tell us how you release today',
    text: 'Describe your orgs, your team and your release rhythm. We usually reply within a business day to set up a discovery call.',
  },
};
