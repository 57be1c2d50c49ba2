import {
  AdminError,
  EXIT_OK,
  type AdminCommand,
  type AdminContext,
  type CommandSettings,
} from '#server/platform/commands/command.ts';
import { printTable, secretKeyOf } from '#server/platform/commands/command-io.ts';
import { inviteOperatorRequestSchema } from '#shared/contracts/console.ts';
import { isRole, roles, type Role } from '#shared/console/permissions.ts';
import type { ConsolePorts } from './console-ports.ts';
import {
  changeOperatorRole,
  disableOperator,
  inviteOperator,
  listOperators,
  type OperatorChangeResult,
} from './manage-operators.ts';

export interface OperatorCommandSettings extends CommandSettings {
  CONSOLE_ORIGIN: string;
}

async function portsOf(context: AdminContext<OperatorCommandSettings>): Promise<ConsolePorts> {
  const db = await context.database();
  return {
    db,
    secretKey: await secretKeyOf(context, db),
    clock: () => context.now(),
    env: { CONSOLE_ORIGIN: context.env.CONSOLE_ORIGIN },
  };
}

function roleOption(value: string | boolean | undefined): Role {
  const text = typeof value === 'string' ? value : '';
  if (!isRole(text)) throw new AdminError(`--role must be one of ${roles.join(', ')}.`, 2);
  return text;
}

const emailArgument = { name: 'email', description: "The operator's e-mail address" };

function refusal(result: Extract<OperatorChangeResult, { ok: false }>, email: string): AdminError {
  switch (result.code) {
    case 'operatorNotFound':
      return new AdminError(`No operator has the address ${email}.`);
    case 'lastOwner':
      return new AdminError(
        `${email} is the last owner who can sign in: invite another owner first.`,
      );
    case 'ownAccount':
      return new AdminError('An operator cannot change their own access.');
  }
}

const invite: AdminCommand<OperatorCommandSettings> = {
  name: 'operators invite',
  summary:
    'Invite an operator of the console: operators invite <email> --role <owner|finance|support|viewer>',
  details: [
    'Prints a one-time enrolment link, valid 24 hours: opened in a browser, it creates the',
    "operator's passkey and signs them in. Only its keyed hash is kept, so it is shown once; a",
    'used or expired link answers 410. Inviting an invited or disabled operator again gives a new',
    'link (older ones stop working) and sets the role. Audited as operator.invited.',
  ].join('\n'),
  arguments: [emailArgument],
  options: { role: { type: 'string', description: `One of ${roles.join(', ')}` } },
  async run(context, { args, options }) {
    const role = roleOption(options.role);
    const parsed = inviteOperatorRequestSchema.safeParse({ email: args[0] ?? '', role });
    if (!parsed.success) throw new AdminError(`Not an e-mail address: "${args[0] ?? ''}".`, 2);
    const result = await inviteOperator(await portsOf(context), parsed.data);
    if (!result.ok) {
      throw new AdminError(
        `${parsed.data.email} is an active operator already: change their role in the console.`,
      );
    }
    context.io.out(`Invited ${result.operator.email} as ${result.operator.role}.`);
    context.io.out(`Enrolment link (once, until ${result.expiresAt.toISOString()}):`);
    context.io.out(result.enrolmentUrl);
    return EXIT_OK;
  },
};

const list: AdminCommand<OperatorCommandSettings> = {
  name: 'operators list',
  summary: 'List the operators of the console, with role and status',
  async run(context) {
    const operators = await listOperators(await portsOf(context));
    if (operators.length === 0) {
      context.io.out('No operators. Invite one: operators invite <email> --role owner');
      return EXIT_OK;
    }
    printTable(
      context,
      ['EMAIL', 'ROLE', 'STATUS', 'SINCE (UTC)'],
      operators.map((operator) => [
        operator.email,
        operator.role,
        operator.status,
        operator.createdAt.replace('T', ' ').slice(0, 16),
      ]),
    );
    return EXIT_OK;
  },
};

const disable: AdminCommand<OperatorCommandSettings> = {
  name: 'operators disable',
  summary: 'Disable an operator: no more sign-ins, and every session of theirs ends now',
  arguments: [emailArgument],
  async run(context, { args }) {
    const email = args[0] ?? '';
    const result = await disableOperator(await portsOf(context), 'cli', { email });
    if (!result.ok) throw refusal(result, email);
    context.io.out(
      `Disabled ${result.operator.email}; ended ${result.sessionsEnded} session${result.sessionsEnded === 1 ? '' : 's'}.`,
    );
    return EXIT_OK;
  },
};

const changeRole: AdminCommand<OperatorCommandSettings> = {
  name: 'operators role',
  summary:
    "Change an operator's role: operators role <email> --role <owner|finance|support|viewer>",
  arguments: [emailArgument],
  options: { role: { type: 'string', description: `One of ${roles.join(', ')}` } },
  async run(context, { args, options }) {
    const role = roleOption(options.role);
    const email = args[0] ?? '';
    const result = await changeOperatorRole(await portsOf(context), 'cli', { email }, role);
    if (!result.ok) throw refusal(result, email);
    context.io.out(`${result.operator.email} is now ${result.operator.role}.`);
    return EXIT_OK;
  },
};

export const operatorAdminCommands: readonly AdminCommand<OperatorCommandSettings>[] = [
  invite,
  list,
  changeRole,
  disable,
];
