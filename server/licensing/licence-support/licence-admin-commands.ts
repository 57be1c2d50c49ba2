import { ORG_ACTIVE_DAYS } from '#server/licensing/licences/check-licence.ts';
import { licenceState } from '#server/licensing/licences/licence-state.ts';
import { MAX_TRIAL_EXTENSION_DAYS } from './licence-actions.ts';
import {
  ORG_RELEASE_WINDOW_DAYS,
  ORG_RELEASES_PER_WINDOW,
  releaseLicenceOrg,
} from '#server/licensing/licence-orgs/release-licence-org.ts';
import { readSalesforceOrgId } from '#server/licensing/licence-validation/salesforce-org-id.ts';
import { issueReplacementKey } from '#server/licensing/licence-recovery/replace-licence-key.ts';
import { sendLostKeyEmail } from '#server/licensing/licence-recovery/send-lost-key-email.ts';
import type { Licence } from '#server/licensing/licences/licence-repository.ts';
import type { LicensingPorts } from '#server/licensing/licensing-ports.ts';
import {
  AdminError,
  EXIT_OK,
  type AdminCommand,
  type CommandSettings,
  type AdminContext,
} from '#server/platform/commands/command.ts';
import {
  MAX_REVOCATION_REASON_LENGTH,
  reinstateLicence,
  revokeLicence,
} from '#server/licensing/licences/revoke-licence.ts';
import { extendTrial } from '../licences/licence-operations.ts';
import { formatTime, isUuid, positiveInteger } from '#server/platform/commands/command-io.ts';
import {
  findLicences,
  findOneLicence,
  licenceDetails,
  withoutKeyHash,
  type LicenceDetails,
} from '#server/licensing/licences/licence-lookup.ts';

/** What the licence commands read of the environment besides their ports. */
type LicenceCommandSettings = CommandSettings;

/** The licence commands: printers over the domain's functions (decision 232). */
type LicenceCommand = AdminCommand<LicenceCommandSettings, LicensingPorts>;
type LicenceCommandContext = AdminContext<LicenceCommandSettings, LicensingPorts>;

/** The one licence the operator named, with the ports, or a clear error naming the candidates. */
async function oneLicence(
  context: LicenceCommandContext,
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

const state = licenceState;

function printLicence(context: LicenceCommandContext, details: LicenceDetails): void {
  const { licence } = details;
  const lines: Array<[string, string]> = [
    ['Licence', licence.id],
    ['Type / edition', `${licence.type} ${licence.edition} (quantity ${licence.quantity})`],
    ['State', `${details.state} (status ${licence.status})`],
    ['E-mail', licence.email],
    ['Key', `ORGS-…-${licence.keyHint}`],
    ['Product', licence.productId],
    ['Expires', formatTime(licence.expiresAt)],
    ['Deactivated', formatTime(licence.deactivatedAt)],
    ['Deletion due', formatTime(licence.deletionScheduledAt)],
    [
      licence.suspended ? 'Suspended' : 'Revoked',
      licence.revokedAt
        ? `${formatTime(licence.revokedAt)}${licence.revocationReason ? ` (${licence.revocationReason})` : ''}`
        : '–',
    ],
    [
      'Subscription',
      licence.subscriptionId
        ? `${licence.subscriptionId} (${licence.subscriptionStatus ?? '?'})`
        : '–',
    ],
    ['Customer', licence.customerId ?? '–'],
    ['Orgs in use', `${details.orgsInUse} of ${details.orgLimit} (${details.orgsSeen} ever seen)`],
    ['Access tokens', `${details.tokensActive} active, ${details.tokensAll} in all`],
    ['Created', formatTime(licence.createdAt)],
  ];
  const width = Math.max(...lines.map(([label]) => label.length)) + 2;
  for (const [label, value] of lines) context.io.out(`${label.padEnd(width)}${value}`);
}

const find: LicenceCommand = {
  name: 'licences find',
  summary: 'Show the licences of an e-mail address, a licence key or a licence id',
  details:
    'An e-mail address finds every licence of that mailbox (case, +tags and Gmail dots ignored). Keys are matched by their keyed hash; the key itself is never stored or shown.',
  arguments: [licenceArgument],
  options: { json: { type: 'boolean', description: 'Print the licences as JSON' } },
  async run(context, { args, options }) {
    const ports = await context.ports();
    const found = await findLicences(ports, args[0] ?? '');
    if (!found.ok) throw new AdminError(found.message, 2);
    const { licences } = found;
    if (licences.length === 0) throw new AdminError(`No licence matches "${args[0]}".`);
    if (options.json === true) {
      context.io.out(JSON.stringify(licences.map(withoutKeyHash), null, 2));
      return EXIT_OK;
    }
    for (const [index, licence] of licences.entries()) {
      if (index > 0) context.io.out('');
      printLicence(context, await licenceDetails(ports, licence));
    }
    return EXIT_OK;
  },
};

const tokenCount = (n: number) => (n === 1 ? '1 access token' : `${n} access tokens`);

/** `--keep-tokens id,id`: the access tokens a key replacement leaves working (decision 212). */
function keptTokenIds(value: string | boolean | undefined): string[] {
  if (value === undefined) return [];
  const ids = (typeof value === 'string' ? value : '')
    .split(',')
    .map((id) => id.trim().toLowerCase())
    .filter((id) => id !== '');
  const bad = ids.find((id) => !isUuid(id));
  if (ids.length === 0 || bad !== undefined) {
    throw new AdminError(
      `--keep-tokens takes token ids (UUIDs, from \`access-tokens list\`) separated by commas${bad === undefined ? '' : `; "${bad}" is not one`}.`,
      2,
    );
  }
  return ids;
}

/** Subscription states in which the provider charges nothing more. */
const finishedSubscriptions = new Set(['canceled', 'incomplete_expired']);

function revocationReason(value: string | boolean | undefined): string | null {
  if (value === undefined) return null;
  const reason = typeof value === 'string' ? value.trim() : '';
  if (!reason) throw new AdminError('--reason needs a text, e.g. --reason "chargeback".', 2);
  if (reason.length > MAX_REVOCATION_REASON_LENGTH) {
    throw new AdminError(`--reason can be at most ${MAX_REVOCATION_REASON_LENGTH} characters.`, 2);
  }
  return reason;
}

const revoke: LicenceCommand = {
  name: 'licences revoke',
  summary: 'Revoke a licence now (validations answer DEACTIVATED until it is reinstated)',
  details: [
    'For fraud, chargebacks or a key published on the internet. Payment events do not lift a',
    'revocation, and it does not touch the subscription: cancel that at the payment provider if',
    'the customer should no longer be charged. `licences reinstate` lifts it. Its access tokens',
    'are revoked with it and stay revoked (decision 212). A customer who only lost the key needs',
    '`licences resend`; a published key can be replaced with `--new-key`.',
  ].join('\n'),
  arguments: [licenceArgument],
  options: {
    reason: {
      type: 'string',
      description: 'Why (kept with the licence, shown by `licences find`)',
    },
  },
  async run(context, { args, options }) {
    const reason = revocationReason(options.reason);
    const { ports, licence } = await oneLicence(context, args[0] ?? '');
    const revoked = await revokeLicence(ports.database.db, licence.id, ports.clock(), reason);
    if (!revoked) {
      context.io.out(
        `Licence ${licence.id} was revoked already (${formatTime(licence.revokedAt)}); nothing changed.`,
      );
      return EXIT_OK;
    }
    context.io.out(
      `Revoked licence ${licence.id} (${licence.type} ${licence.edition}, ${licence.email}).`,
    );
    context.io.out(
      `Validations answer DEACTIVATED (revoked) within ${ports.env.LICENSE_VALIDATION_CACHE_SECONDS} seconds; payment events do not change that.`,
    );
    context.io.out(
      `Revoked its ${tokenCount(revoked.endedTokens)} with it; reinstating does not bring them back.`,
    );
    if (
      licence.subscriptionId &&
      !finishedSubscriptions.has(licence.subscriptionStatus ?? 'canceled')
    ) {
      context.io.out(
        `Its subscription ${licence.subscriptionId} (${licence.subscriptionStatus ?? '?'}) keeps running: cancel it at the payment provider if the customer should no longer be charged.`,
      );
    }
    return EXIT_OK;
  },
};

const reinstate: LicenceCommand = {
  name: 'licences reinstate',
  summary: 'Lift a revocation (validations answer as the subscription and dates say)',
  details:
    'The licence returns to the state its subscription and dates give it: valid if it is paid for, otherwise deactivated, expired or due for deletion as the lifecycle has recorded meanwhile.',
  arguments: [licenceArgument],
  async run(context, { args }) {
    const { ports, licence } = await oneLicence(context, args[0] ?? '');
    const reinstated = await reinstateLicence(ports.database.db, licence.id, ports.clock());
    if (!reinstated) {
      context.io.out(`Licence ${licence.id} is not revoked; nothing changed.`);
      return EXIT_OK;
    }
    context.io.out(
      `Reinstated licence ${licence.id}; validations now answer: ${state(reinstated, ports.clock())}.`,
    );
    return EXIT_OK;
  },
};

const extend: LicenceCommand = {
  name: 'licences extend-trial',
  summary: 'Extend a trial licence by a number of days',
  details:
    'Counts from the current end date, or from now when the trial has already ended. Only trials can be extended; paid licences follow their subscription.',
  arguments: [licenceArgument],
  options: {
    days: {
      type: 'string',
      description: `Days to add (1 to ${MAX_TRIAL_EXTENSION_DAYS}; required)`,
    },
  },
  async run(context, { args, options }) {
    if (options.days === undefined) throw new AdminError('Missing --days <number>.', 2);
    const days = positiveInteger(options.days, 'days');
    if (days > MAX_TRIAL_EXTENSION_DAYS) {
      throw new AdminError(`--days can be at most ${MAX_TRIAL_EXTENSION_DAYS}.`, 2);
    }
    const { ports, licence } = await oneLicence(context, args[0] ?? '');
    if (licence.type !== 'Trial') {
      throw new AdminError(`Licence ${licence.id} is a ${licence.type} licence, not a trial.`);
    }
    const extended = await extendTrial(ports.database.db, licence, days, ports.clock());
    context.io.out(
      `Trial ${licence.id} now ends ${formatTime(extended.expiresAt)} (was ${formatTime(licence.expiresAt)}).`,
    );
    return EXIT_OK;
  },
};

const resend: LicenceCommand = {
  name: 'licences resend',
  summary: 'Send the licence e-mail again (a link to get a new key, or --new-key)',
  details: [
    'Keys are stored only as keyed hashes, so the old key cannot be sent again. By default the',
    'licence address receives the lost-key e-mail: a link per licence that replaces its key when',
    'the customer clicks it. With --new-key the key is replaced now and the new key is e-mailed;',
    'the old key stops working at once, and so does every access token of the licence except',
    'those named with --keep-tokens (decision 212).',
  ].join('\n'),
  arguments: [licenceArgument],
  options: {
    'new-key': { type: 'boolean', description: 'Replace the key now and e-mail the new key' },
    'keep-tokens': {
      type: 'string',
      description: 'With --new-key: ids of access tokens that keep working, separated by commas',
    },
  },
  async run(context, { args, options }) {
    const keep = keptTokenIds(options['keep-tokens']);
    if (keep.length > 0 && options['new-key'] !== true) {
      throw new AdminError('--keep-tokens goes with --new-key.', 2);
    }
    const { ports, licence } = await oneLicence(context, args[0] ?? '');
    const mail = {
      db: ports.database.db,
      secretKey: ports.secretKey,
      publicBaseUrl: ports.env.PUBLIC_BASE_URL,
      accountBaseUrl: ports.env.ACCOUNT_API_URL ?? ports.env.PUBLIC_BASE_URL,
      clock: ports.clock,
    };
    if (options['new-key'] === true) {
      const result = await issueReplacementKey(mail, licence, keep);
      if (!result.ok)
        throw new AdminError('The key changed while replacing it; run the command again.');
      context.io.out(
        `Replaced the key of ${licence.id}; the new key is queued for ${licence.email}.`,
      );
      context.io.out(
        `Revoked ${tokenCount(result.endedTokens)} with the old key; ${tokenCount(result.keptTokens)} kept.`,
      );
    } else {
      await sendLostKeyEmail(mail, licence.email);
      context.io.out(`Queued the lost-key e-mail for ${licence.email} (links valid for 24 hours).`);
    }
    context.io.out('The running server delivers queued e-mail within a minute (`outbox show`).');
    return EXIT_OK;
  },
};

const releaseOrg: LicenceCommand = {
  name: 'licences release-org',
  summary: "Free an org's slot in the licence's quota now (e.g. after a sandbox refresh)",
  details: [
    'The org stops counting at once (validations on every instance see it within the validation',
    'cache), and is admitted again as a new org if it validates later (decision 228). Operators',
    `are not capped; customers may release ${ORG_RELEASES_PER_WINDOW} orgs of a licence in ${ORG_RELEASE_WINDOW_DAYS} days.`,
    'Audited with the reason.',
  ].join('\n'),
  arguments: [
    licenceArgument,
    { name: 'org', description: 'The Salesforce org id (15 or 18 characters)' },
  ],
  options: { reason: { type: 'string', description: 'Why (required; kept in the audit log)' } },
  async run(context, { args, options }) {
    // Required: it is the reason the audit log keeps (runAdmin passes --reason on).
    revocationReason(options.reason);
    const reading = readSalesforceOrgId((args[1] ?? '').trim());
    if (!reading.ok) {
      throw new AdminError(
        reading.reason === 'checksum'
          ? `"${args[1] ?? ''}" has a wrong checksum: its 18-character form is ${reading.expected}.`
          : `"${args[1] ?? ''}" is not a Salesforce org id (15 or 18 letters and digits starting with 00D).`,
        2,
      );
    }
    const { ports, licence } = await oneLicence(context, args[0] ?? '');
    const result = await releaseLicenceOrg(
      { db: ports.database.db, clock: ports.clock },
      { licenceId: licence.id, orgId: reading.id, by: 'operator' },
    );
    if (!result.ok) {
      throw new AdminError(
        result.code === 'OrgNotInUse'
          ? `Org ${reading.id} holds no slot of licence ${licence.id} (not seen in the last ${ORG_ACTIVE_DAYS} days); nothing changed.`
          : `Licence ${licence.id} is gone.`,
      );
    }
    context.io.out(
      `Released org ${result.released.orgId} from licence ${licence.id} (first seen ${formatTime(result.released.firstSeenAt)}, last seen ${formatTime(result.released.lastSeenAt)}).`,
    );
    context.io.out(
      `Validations count it no more within ${ports.env.LICENSE_VALIDATION_CACHE_SECONDS} seconds; it is admitted again as a new org if it validates later.`,
    );
    return EXIT_OK;
  },
};

/** Licence support commands (listed by the domain's manifest, decision 169). */
export const licenceAdminCommands: readonly LicenceCommand[] = [
  find,
  revoke,
  reinstate,
  extend,
  resend,
  releaseOrg,
];
