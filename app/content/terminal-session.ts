import type { TerminalSession } from '../components/terminal/timeline.ts';

/**
 * The session the home page terminal types: a team puts its orgs under version control, validates a
 * deployment and promotes UAT to production with one atomic merge flow.
 */
export const terminalSession: TerminalSession = {
  title: 'acme-salesforce — orgsmith',
  prompt: '$',
  description:
    'An example Orgsmith session: create a stack, add a UAT environment, sync its org to Git, validate a deployment without changing the org, and merge UAT into production in one atomic step.',
  steps: [
    {
      command: 'orgsmith stack:create --name acme',
      output: [
        {
          text: '→ Production org  admin@acme.com (Enterprise Edition)',
          tone: 'muted',
          delay: 500,
        },
        { text: '→ Repository      github.com/acme/salesforce', tone: 'muted' },
        {
          text: '✔ Stack acme created with environment prod ⇄ branch main',
          tone: 'success',
          delay: 400,
        },
      ],
    },
    {
      command: 'orgsmith env:create --name uat --branchName uat',
      output: [
        {
          text: '→ Sandbox uat found (Partial Copy, refreshed 3 days ago)',
          tone: 'muted',
          delay: 500,
        },
        { text: '→ Branch uat created from main', tone: 'muted' },
        { text: '✔ Environment uat ready: org uat ⇄ branch uat', tone: 'success', delay: 300 },
      ],
    },
    {
      command: 'orgsmith flow:in --environment uat',
      output: [
        { text: '→ Detecting changes since last sync … 14 components', tone: 'muted', delay: 700 },
        { text: '→ Retrieving 14 components (1 batch)', tone: 'muted', delay: 600 },
        { text: '→ Normalizing and pruning metadata', tone: 'muted', delay: 300 },
        {
          text: '✔ Committed a3f9c21 to uat: "Inbound: 14 components"',
          tone: 'success',
          delay: 300,
        },
      ],
    },
    {
      command: 'orgsmith flow:out --environment uat --checkOnly',
      output: [
        {
          text: '→ Comparing branch uat with org uat … 2 components differ',
          tone: 'muted',
          delay: 600,
        },
        { text: '→ Validating deployment (check only, org unchanged)', tone: 'muted', delay: 900 },
        { text: '  Apex tests: 18 passed, 0 failed', tone: 'plain', delay: 700 },
        { text: '✔ Validation succeeded: 2 components deployable', tone: 'success', delay: 200 },
      ],
    },
    {
      command: 'orgsmith flow:merge --from uat --into prod',
      output: [
        { text: '→ Inbound  prod: no changes in production', tone: 'muted', delay: 800 },
        {
          text: '→ Merge    uat into main: 16 components, no conflicts',
          tone: 'muted',
          delay: 500,
        },
        { text: '→ Outbound prod: deploying 16 components', tone: 'muted', delay: 1000 },
        { text: '  Apex tests: 42 passed, 0 failed (coverage 87%)', tone: 'plain', delay: 900 },
        {
          text: '✔ Merge flow complete: main at 7c1e0d4, prod in sync',
          tone: 'success',
          delay: 300,
        },
      ],
    },
  ],
};
