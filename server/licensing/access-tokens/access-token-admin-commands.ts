import { accessTokenInfo } from '#server/licensing/access-tokens/access-token-info.ts';
import { createAccessTokenRepository } from '#server/licensing/access-tokens/access-token-repository.ts';
import {
  createAccessToken,
  MAX_ACTIVE_TOKENS_PER_LICENCE,
} from '#server/licensing/access-tokens/create-access-token.ts';
import { revokeAccessToken } from '#server/licensing/access-tokens/revoke-access-token.ts';
import {
  AdminError,
  EXIT_OK,
  type AdminCommand,
  type AdminContext,
  type CommandSettings,
} from '#server/platform/commands/command.ts';
import { formatTime, isUuid, printTable } from '#server/platform/commands/command-io.ts';
import { findOneLicence } from '#server/licensing/licences/licence-lookup.ts';
import type { Licence } from '#server/licensing/licences/licence-repository.ts';
import type { LicensingPorts } from '#server/licensing/licensing-ports.ts';

/** The access token commands: printers over the domain's functions (decision 232). */
type AccessTokenCommand = AdminCommand<CommandSettings, LicensingPorts>;

/** The one licence the operator named, with the ports, or a clear error. */
async function oneLicence(
  context: AdminContext<CommandSettings, LicensingPorts>,
  reference: string,
): Promise<{ ports: LicensingPorts; licence: Licence }> {
  const ports = await context.ports();
  const found = await findOneLicence(ports, reference);
  if (!found.ok) {
    const usage = found.code === 'KeyTypo' || found.code === 'NotAReference';
    throw new AdminError(found.message, usage ? 2 : 1);
  }
  return { ports, licence: found.licence };
}

const licenceArgument = {
  name: 'licence',
  description: 'Licence id, licence key or e-mail address',
};

const create: AccessTokenCommand = {
  name: 'access-tokens create',
  summary: 'Create an access token for a licence (printed once)',
  details:
    'The token stands in for the licence key (e.g. in CI). It is printed this once and stored only as a keyed hash: hand it to the customer over a secure channel.',
  arguments: [licenceArgument],
  options: {
    name: {
      type: 'string',
      description: 'What the token is for (required), e.g. "GitHub Actions"',
    },
  },
  async run(context, { args, options }) {
    const name = typeof options.name === 'string' ? options.name.trim() : '';
    if (!name) throw new AdminError('Missing --name <what the token is for>.', 2);
    if (name.length > 100) throw new AdminError('--name can be at most 100 characters long.', 2);
    const { ports, licence } = await oneLicence(context, args[0] ?? '');
    const result = await createAccessToken(
      {
        db: ports.database.db,
        secretKey: ports.secretKey,
        publicBaseUrl: ports.env.PUBLIC_BASE_URL,
      },
      { licenceId: licence.id, name, from: { kind: 'operator' } },
      ports.clock(),
    );
    if (!result.ok && result.code === 'LicenceUnknown') {
      throw new AdminError(`Licence ${licence.id} was deleted meanwhile.`);
    }
    if (!result.ok) {
      throw new AdminError(
        `Licence ${licence.id} has ${MAX_ACTIVE_TOKENS_PER_LICENCE} active tokens already; revoke one first.`,
      );
    }
    context.io.out(
      `Created access token ${result.record.id} ("${name}") for licence ${licence.id}:`,
    );
    context.io.out('');
    context.io.out(`  ${result.token}`);
    context.io.out('');
    context.io.out(`It is shown only now. ${licence.email} is told of it by e-mail.`);
    return EXIT_OK;
  },
};

const list: AccessTokenCommand = {
  name: 'access-tokens list',
  summary: 'List the access tokens of a licence',
  arguments: [licenceArgument],
  options: { json: { type: 'boolean', description: 'Print JSON' } },
  async run(context, { args, options }) {
    const { ports, licence } = await oneLicence(context, args[0] ?? '');
    const tokens = await createAccessTokenRepository(ports.database.db).listForLicence(licence.id);
    if (options.json === true) {
      context.io.out(JSON.stringify(tokens.map(accessTokenInfo), null, 2));
      return EXIT_OK;
    }
    if (tokens.length === 0) {
      context.io.out(`Licence ${licence.id} has no access tokens.`);
      return EXIT_OK;
    }
    printTable(
      context,
      ['ID', 'NAME', 'ENDS IN', 'CREATED', 'LAST USED', 'REVOKED'],
      tokens.map((token) => [
        token.id,
        token.name,
        token.tokenHint,
        formatTime(token.createdAt),
        formatTime(token.lastUsedAt),
        formatTime(token.revokedAt),
      ]),
    );
    return EXIT_OK;
  },
};

const revoke: AccessTokenCommand = {
  name: 'access-tokens revoke',
  summary: 'Revoke an access token (validations with it answer NOT_FOUND)',
  arguments: [{ name: 'token-id', description: 'The id shown by `access-tokens list`' }],
  async run(context, { args }) {
    const id = (args[0] ?? '').trim().toLowerCase();
    if (!isUuid(id)) throw new AdminError(`"${args[0]}" is not a token id (a UUID).`, 2);
    const ports = await context.ports();
    const result = await revokeAccessToken(
      { db: ports.database.db, secretKey: ports.secretKey },
      { id },
      ports.clock(),
    );
    if (!result.ok) throw new AdminError(`No access token has the id ${id}.`);
    context.io.out(
      result.alreadyRevoked
        ? `Access token ${id} was revoked already (${formatTime(result.record.revokedAt)}).`
        : `Revoked access token ${id} ("${result.record.name}").`,
    );
    return EXIT_OK;
  },
};

/** Access token commands (listed by the domain's manifest, decision 169). */
export const accessTokenAdminCommands: readonly AccessTokenCommand[] = [create, list, revoke];
