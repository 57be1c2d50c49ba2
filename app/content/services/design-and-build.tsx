import { Link } from 'react-router';
import { siteConfig } from '#shared/site-config.ts';
import { pages } from '#app/pages.ts';
import type { ServicePageContent } from '#app/components/content/ServicePage.tsx';

const product = siteConfig.productName;

export const designAndBuildContent: ServicePageContent = {
  eyebrow: 'Service · design, build and hand over',
  summary: `We design and build a Salesforce DevOps pipeline on ${product} around your orgs, branches and CI, then hand it over with runbooks and training. From the day of handover, your team owns and operates it.`,
  deliverables: {
    intro:
      'At the end of the engagement you have a working pipeline and a team that knows how to run it.',
    items: [
      {
        title: 'A pipeline design document',
        text: 'Environments, branches and the promotion path, the include filter, CI and approval rules, with the reasoning behind each choice.',
      },
      {
        title: 'Stacks, baselined in Git',
        text: 'Stacks and environments for your orgs, credentials stored encrypted, and every org’s metadata committed to its branch by a first inbound flow.',
      },
      {
        title: 'CI workflows',
        text: 'Validation of every pull request with --checkOnly, deployments on merge and Apex test runs, on GitHub Actions or the CI you already use.',
      },
      {
        title: 'Runbooks',
        text: 'Step-by-step guides for releases, hotfixes, sandbox refreshes, onboarding a developer, rotating credentials and recovering from a failed deployment.',
      },
      {
        title: 'Training',
        text: 'Hands-on sessions for admins, developers and release managers, recorded for the people who join later.',
      },
    ],
  },
  phases: {
    intro: 'Most engagements take five to eight weeks from the first workshop to handover.',
    items: [
      {
        title: 'Discovery',
        duration: '1 week',
        text: 'We take stock of your orgs, sandboxes, metadata volume, repository and CI, and of how you release today and where it hurts.',
      },
      {
        title: 'Design',
        duration: '1–2 weeks',
        text: 'We propose the environment and branch model, include filter, promotion rules and CI design, and agree them with your team.',
      },
      {
        title: 'Build',
        duration: '2–4 weeks',
        text: 'We set up stacks, environments, credentials and pipelines, baseline every org in Git and prove the path with check-only releases.',
      },
      {
        title: 'Hand over',
        duration: '1–2 weeks',
        text: 'Training and runbooks; your team runs the first real releases with us alongside, and we answer follow-up questions by e-mail for 30 days.',
      },
    ],
  },
  audience: {
    intro:
      'Design & Build fits teams that want to own their pipeline and get it right the first time:',
    fits: [
      'Teams with in-house developers or DevOps engineers who will run the pipeline',
      'Companies moving from change sets or home-grown scripts to Git-based releases',
      'Consultancies and partners who want a reference pipeline for their own product org',
      'Teams that tried a DevOps setup before and want a second attempt that sticks',
    ],
    alternative: (
      <>
        Would you rather not operate it yourselves?{' '}
        <Link to={pages.serviceDeployment.path}>Deployment as a Service</Link> keeps us on board
        after the build.
      </>
    ),
  },
  faq: [
    {
      title: 'What do we need to provide?',
      body: (
        <p>
          A sponsor who can make decisions, integration users for production and the sandboxes, a
          Git repository and CI, and a few hours a week from the people who release today.
        </p>
      ),
      answerText:
        'A sponsor who can make decisions, integration users for production and the sandboxes, a Git repository and CI, and a few hours a week from the people who release today.',
    },
    {
      title: 'Which CI systems do you build for?',
      body: (
        <p>
          GitHub Actions with the {product} setup action, GitLab CI, Azure Pipelines, Bitbucket
          Pipelines and Jenkins — anything that can run a Docker image or a shell command.
        </p>
      ),
      answerText: `GitHub Actions with the ${product} setup action, GitLab CI, Azure Pipelines, Bitbucket Pipelines and Jenkins — anything that can run a Docker image or a shell command.`,
    },
    {
      title: 'What happens after the handover?',
      body: (
        <p>
          You operate the pipeline. Free technical support for every licence continues by e-mail and
          in the community chat (see <Link to={pages.support.path}>support</Link>), Enterprise adds
          a response SLA, and you can book us again for reviews or extensions.
        </p>
      ),
      answerText:
        'You operate the pipeline. Free technical support for every licence continues by e-mail and in the community chat, Enterprise adds a response SLA, and you can book us again for reviews or extensions.',
    },
    {
      title: 'How is it priced?',
      body: (
        <p>
          As a fixed price for the agreed scope, quoted after the discovery call. The {product}{' '}
          licence is separate and stays in your name.
        </p>
      ),
      answerText: `As a fixed price for the agreed scope, quoted after the discovery call. The ${product} licence is separate and stays in your name.`,
    },
  ],
  getInTouch: {
    heading: 'Plan your pipeline with us',
    text: 'Tell us about your orgs, your repository and your CI. We usually reply within a business day with a proposal for a first call.',
  },
};
