/**
 * The Orgsmith command reference (docs/product-rules.md#product): the seventeen named commands, the options they share
 * and the toolbox commands with the editions that include them (decision 031).
 */
import type {
  CommandGroup,
  OptionInfo,
  ToolboxCommand,
} from '#app/components/content/CommandReference.tsx';

export const commandGroups: readonly CommandGroup[] = [
  {
    id: 'stack-commands',
    title: 'Stacks',
    intro:
      'A stack is a set of environments that share one production org, one Git repository and one flow configuration.',
    commands: [
      {
        name: 'stack:create',
        summary:
          'Creates a stack: connects the production org and the Git repository and sets up the flow configuration its environments share.',
      },
      {
        name: 'stack:delete',
        summary:
          'Removes a stack and its environments from the configuration; orgs, branches and commits stay untouched.',
      },
      {
        name: 'stack:list',
        summary:
          'Lists your stacks with production org, repository and number of environments, marking the default.',
      },
      {
        name: 'stack:setdefault',
        summary: 'Makes a stack the default for every command that does not name one.',
      },
    ],
  },
  {
    id: 'environment-commands',
    title: 'Environments',
    intro: 'An environment is a Salesforce org (sandbox or production) paired with a Git branch.',
    commands: [
      {
        name: 'env:create',
        summary:
          'Pairs an org with a Git branch as a new environment of the stack, creating the branch from production if it does not exist.',
      },
      {
        name: 'env:delete',
        summary:
          'Removes an environment from the stack; the org and the branch are left as they are.',
      },
      {
        name: 'env:list',
        summary: 'Lists the environments of a stack with their org, branch and tags.',
      },
      {
        name: 'env:tags:set',
        summary:
          'Tags an environment (for example qa or release-b) so scripts and pipelines can select environments by tag.',
      },
      {
        name: 'env:tags:delete',
        summary: 'Removes tags from an environment.',
      },
      {
        name: 'env:test',
        summary:
          'Checks an environment end to end: org login, Metadata API access, credentials and the branch in the repository.',
      },
    ],
  },
  {
    id: 'flow-commands',
    title: 'Flows',
    intro: 'Flows move metadata between an environment’s org and its branch.',
    commands: [
      {
        name: 'flow:in',
        summary:
          'Inbound flow: detects what changed in the org, retrieves it and commits it to the environment’s branch.',
      },
      {
        name: 'flow:out',
        summary:
          'Outbound flow: compares the branch with the org and deploys the difference, excluding and retrying failed components.',
      },
      {
        name: 'flow:merge',
        summary:
          'Merge flow: inbound, a Git merge of one environment into another and outbound, as one atomic operation.',
      },
    ],
  },
  {
    id: 'auth-commands',
    title: 'Credentials',
    intro:
      'Credentials are stored encrypted with your own key, on the machine or in a cloud state store.',
    commands: [
      {
        name: 'auth:key:create',
        summary: 'Creates a new encryption key for stored credentials.',
      },
      {
        name: 'auth:key:save',
        summary:
          'Saves an existing key on this machine or CI runner, so it can read credentials encrypted elsewhere.',
      },
      {
        name: 'auth:salesforce:save',
        summary: 'Stores the login of a Salesforce org, encrypted with your key.',
      },
      {
        name: 'auth:git:save',
        summary: 'Stores the credentials for the Git repository, encrypted with your key.',
      },
    ],
  },
];

export const commandOptions: readonly OptionInfo[] = [
  {
    name: 'checkOnly',
    summary:
      'Validates without changing the target: the deployment is checked and the tests run, but nothing is saved in the org or pushed to Git.',
    usedWith: ['flow:out', 'flow:merge', 'toolbox:deploy'],
  },
  {
    name: 'environment',
    summary: 'The environment a command works on.',
    usedWith: ['flow:in', 'flow:out', 'env:test', 'env:tags:set', 'env:tags:delete'],
  },
  {
    name: 'from',
    summary: 'The environment whose branch is merged.',
    usedWith: ['flow:merge'],
  },
  {
    name: 'into',
    summary: 'The environment that receives the merge, in Git and in its org.',
    usedWith: ['flow:merge'],
  },
  {
    name: 'name',
    summary: 'The name of the stack or environment to create or select.',
    usedWith: ['stack:create', 'stack:delete', 'stack:setdefault', 'env:create', 'env:delete'],
  },
  {
    name: 'branchName',
    summary: 'The Git branch paired with a new environment.',
    usedWith: ['env:create'],
  },
];

export const toolboxCommands: readonly ToolboxCommand[] = [
  {
    name: 'retrieve',
    command: 'toolbox:retrieve',
    edition: 'all',
    summary:
      'Retrieves the metadata your include filter selects from an org into a folder, batched past the 10,000-component limit.',
  },
  {
    name: 'deploy',
    command: 'toolbox:deploy',
    edition: 'pro',
    summary:
      'Deploys a folder or manifest to an org, with optional test levels and --checkOnly validation.',
  },
  {
    name: 'normalize',
    command: 'toolbox:normalize',
    edition: 'all',
    summary:
      'Rewrites metadata files into one canonical order and format, so diffs show real changes only.',
  },
  {
    name: 'prune',
    command: 'toolbox:prune',
    edition: 'all',
    summary:
      'Removes what the include filter leaves out, such as profile entries for excluded objects, and empty files.',
  },
  {
    name: 'diff',
    command: 'toolbox:diff',
    edition: 'all',
    summary:
      'Compares an org, a branch or a folder with another, component by component: added, changed, deleted.',
  },
  {
    name: 'stats',
    command: 'toolbox:stats',
    edition: 'all',
    summary: 'Counts the components of an org or a branch by metadata type.',
  },
  {
    name: 'manifest',
    command: 'toolbox:manifest',
    edition: 'all',
    summary:
      'Writes a package.xml (and destructiveChanges.xml) from a diff or from the include filter.',
  },
  {
    name: 'apply',
    command: 'toolbox:apply',
    edition: 'pro',
    summary:
      'Applies the changes between two Git commits to an org: deploys what changed and deletes what was removed.',
  },
  {
    name: 'commit',
    command: 'toolbox:commit',
    edition: 'pro',
    summary:
      'Commits retrieved metadata to an environment’s branch with a message listing the changed components.',
  },
  {
    name: 'sandbox create',
    command: 'toolbox:sandbox:create',
    edition: 'pro',
    summary: 'Creates a sandbox of the production org, optionally from a sandbox template.',
  },
  {
    name: 'sandbox delete',
    command: 'toolbox:sandbox:delete',
    edition: 'pro',
    summary: 'Deletes a sandbox of the production org after confirmation.',
  },
  {
    name: 'sandbox list',
    command: 'toolbox:sandbox:list',
    edition: 'all',
    summary:
      'Lists the sandboxes of the production org with licence type, status and last refresh.',
  },
];

export const commandReferenceIntro = {
  heading: 'Command reference',
  text: 'The seventeen commands behind stacks, environments, flows and credentials, one line each, and the options they share. Every command prints its full usage with --help; the documentation has the details.',
} as const;
