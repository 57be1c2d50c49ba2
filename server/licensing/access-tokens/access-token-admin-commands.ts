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
  type CommandSettings,
} from '#server/platform/commands/command.ts';
import {
  formatTime,
  isUuid,
  printTable,
  secretKeyOf,
} from '#server/platform/commands/command-io.ts';
import { findOneLicence } from '#server/licensing/licences/licence-lookup.ts';

/** What the access token commands read of the environment: where the e-mail's links point. */
interface AccessTokenCommandSettings extends CommandSettings {
  PUBLIC_BASE_URL: string;
}

const licenceArgument = {
  name: 'licence',
  description: 'Licence id, licence key or e-mail address',
};

const create: AdminCommand<AccessTokenCommandSettings> = {
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
    const { db, licence } = await findOneLicence(context, args[0] ?? '');
    const result = await createAccessToken(
      {
        db,
        secretKey: await secretKeyOf(context, db),
        publicBaseUrl: context.env.PUBLIC_BASE_URL,
      },
      { licenceId: licence.id, name, from: { kind: 'operator' } },
      context.now(),
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

const list: AdminCommand<AccessTokenCommandSettings> = {
  name: 'access-tokens list',
  summary: 'List the access tokens of a licence',
  arguments: [licenceArgument],
  options: { json: { type: 'boolean', description: 'Print JSON' } },
  async run(context, { args, options }) {
    const { db, licence } = await findOneLicence(context, args[0] ?? '');
    const tokens = await createAccessTokenRepository(db).listForLicence(licence.id);
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

const revoke: AdminCommand<AccessTokenCommandSettings> = {
  name: 'access-tokens revoke',
  summary: 'Revoke an access token (validations with it answer NOT_FOUND)',
  arguments: [{ name: 'token-id', description: 'The id shown by `access-tokens list`' }],
  async run(context, { args }) {
    const id = (args[0] ?? '').trim().toLowerCase();
    if (!isUuid(id)) throw new AdminError(`"${args[0]}" is not a token id (a UUID).`, 2);
    const db = await context.database();
    const result = await revokeAccessToken(
      { db, secretKey: await secretKeyOf(context, db) },
      { id },
      context.now(),
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
export const accessTokenAdminCommands: readonly AdminCommand<AccessTokenCommandSettings>[] = [
  create,
  list,
  revoke,
];
