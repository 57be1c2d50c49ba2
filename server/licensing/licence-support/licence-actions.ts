import { z } from 'zod';
import { priceConfig } from '#shared/pricing/index.ts';
import { licenceActionPermissions as sharedLicenceActionPermissions } from '#shared/console/licence-actions.ts';
import type { Permission } from '#shared/console/permissions.ts';
import { actingAs, type AuditContext } from '#server/platform/audit/audit-context.ts';
import type { Database } from '#server/platform/db/database.ts';
import { revokeAccessToken } from '../access-tokens/revoke-access-token.ts';
import { issueReplacementKey } from '../licence-recovery/replace-licence-key.ts';
import { sendLostKeyEmail } from '../licence-recovery/send-lost-key-email.ts';
import { releaseLicenceOrg } from '../licence-orgs/release-licence-org.ts';
import { normalizeSalesforceOrgId } from '../licence-validation/salesforce-org-id.ts';
import { extendTrial } from '../licences/licence-operations.ts';
import { createLicenceRepository, type Licence } from '../licences/licence-repository.ts';
import { licenceState } from '../licences/licence-state.ts';
import {
  MAX_REVOCATION_REASON_LENGTH,
  reinstateLicence,
  revokeLicence,
  suspendLicence,
} from '../licences/revoke-licence.ts';

/** The org limits a Pro licence may be given: the Pro sizes of the pricing engine (4 to 24). */
export const PRO_MIN_ORGS = priceConfig.proStartSize * priceConfig.proOrgsPerSizeUnit;
export const PRO_MAX_ORGS = (priceConfig.enterpriseStartSize - 1) * priceConfig.proOrgsPerSizeUnit;

/** The longest trial extension one action grants. */
export const MAX_TRIAL_EXTENSION_DAYS = 366;

const reason = z
  .string()
  .trim()
  .min(1, 'Give a reason.')
  .max(
    MAX_REVOCATION_REASON_LENGTH,
    `A reason has at most ${MAX_REVOCATION_REASON_LENGTH} characters.`,
  );

/**
 * What support may do to a licence (issue 40; decisions 086, 212, 228), each with the reason the
 * audit log keeps. The console and the CLI send these; the permission each needs is
 * `licenceActionPermissions[kind]`.
 */
const orgIdField = z.string().refine((value) => normalizeSalesforceOrgId(value) !== undefined, {
  message: 'Name a Salesforce org id: 15 or 18 characters starting with 00D.',
});

/** Each action's fields besides its kind: the body of its console endpoint. */
export const licenceActionBodies = {
  suspend: z.strictObject({ reason }),
  revoke: z.strictObject({ reason }),
  reinstate: z.strictObject({ reason }),
  'extend-trial': z.strictObject({
    reason,
    days: z.number().int().min(1).max(MAX_TRIAL_EXTENSION_DAYS),
  }),
  'change-orgs': z.strictObject({
    reason,
    orgs: z
      .number()
      .int()
      .min(PRO_MIN_ORGS, `A Pro licence allows ${PRO_MIN_ORGS} to ${PRO_MAX_ORGS} orgs.`)
      .max(PRO_MAX_ORGS, `A Pro licence allows ${PRO_MIN_ORGS} to ${PRO_MAX_ORGS} orgs.`),
  }),
  'release-org': z.strictObject({ reason, orgId: orgIdField }),
  'resend-key': z.strictObject({ reason }),
  'replace-key': z.strictObject({
    reason,
    keepTokenIds: z.array(z.uuid()).max(100).default([]),
  }),
  'revoke-token': z.strictObject({ reason, tokenId: z.uuid() }),
};

export const licenceActionSchema = z.discriminatedUnion('kind', [
  licenceActionBodies.suspend.extend({ kind: z.literal('suspend') }),
  licenceActionBodies.revoke.extend({ kind: z.literal('revoke') }),
  licenceActionBodies.reinstate.extend({ kind: z.literal('reinstate') }),
  licenceActionBodies['extend-trial'].extend({ kind: z.literal('extend-trial') }),
  licenceActionBodies['change-orgs'].extend({ kind: z.literal('change-orgs') }),
  licenceActionBodies['release-org'].extend({ kind: z.literal('release-org') }),
  licenceActionBodies['resend-key'].extend({ kind: z.literal('resend-key') }),
  licenceActionBodies['replace-key'].extend({ kind: z.literal('replace-key') }),
  licenceActionBodies['revoke-token'].extend({ kind: z.literal('revoke-token') }),
]);

export type LicenceAction = z.output<typeof licenceActionSchema>;
export type LicenceActionKind = LicenceAction['kind'];

/** The console permission each action needs (docs/console.md), shared with the console's pages. */
export const licenceActionPermissions: Record<LicenceActionKind, Permission> =
  sharedLicenceActionPermissions;

/** Actions that end a licence or a credential: the console asks for the passkey again first. */
export const licenceActionsEndingAccess: ReadonlySet<LicenceActionKind> = new Set([
  'revoke',
  'replace-key',
  'revoke-token',
]);

export interface LicenceActionPorts {
  db: Database;
  secretKey: string;
  publicBaseUrl: string;
  accountBaseUrl: string;
  clock: () => Date;
}

export type LicenceActionResult =
  | {
      ok: true;
      /** The licence after the action. */
      licence: Licence;
      /** What validation answers for it now: `valid`, `revoked`, … */
      state: string;
      /** Whether anything changed (false: it was so already). */
      changed: boolean;
      /** What happened, in one sentence for the operator. */
      summary: string;
    }
  | {
      ok: false;
      code:
        | 'LicenceNotFound'
        | 'NotATrial'
        | 'NotPro'
        | 'FollowsSubscription'
        | 'OrgNotInUse'
        | 'TokenNotFound'
        | 'KeyChanged';
      message: string;
    };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Runs one support action on a licence as `context.actor` with `context.reason` recorded by the
 * audit log (decision 224) for every change it makes, and returns what it did as data: the console
 * shows it, `npm run admin -- licences …` prints it.
 */
export async function runLicenceAction(
  ports: LicenceActionPorts,
  context: AuditContext,
  licenceId: string,
  action: LicenceAction,
): Promise<LicenceActionResult> {
  return actingAs({ ...context, reason: action.reason }, async () => {
    const licences = createLicenceRepository(ports.db);
    const licence = await licences.findById(licenceId);
    if (!licence) {
      return { ok: false, code: 'LicenceNotFound', message: `No licence ${licenceId}.` };
    }
    const now = ports.clock();
    const done = (after: Licence, changed: boolean, summary: string): LicenceActionResult => ({
      ok: true,
      licence: after,
      state: licenceState(after, now),
      changed,
      summary,
    });
    switch (action.kind) {
      case 'suspend': {
        const suspended = await suspendLicence(ports.db, licence.id, now, action.reason);
        return suspended
          ? done(suspended, true, 'Suspended; its access tokens answer with it until reinstated.')
          : done(licence, false, 'It was suspended or revoked already; nothing changed.');
      }
      case 'revoke': {
        const revoked = await revokeLicence(ports.db, licence.id, now, action.reason);
        return revoked
          ? done(
              revoked.licence,
              true,
              `Revoked; ${plural(revoked.endedTokens, 'access token')} ended with it.`,
            )
          : done(licence, false, 'It was revoked already; nothing changed.');
      }
      case 'reinstate': {
        const reinstated = await reinstateLicence(ports.db, licence.id, now);
        return reinstated
          ? done(
              reinstated,
              true,
              `Reinstated; validations answer: ${licenceState(reinstated, now)}.`,
            )
          : done(licence, false, 'It is not revoked; nothing changed.');
      }
      case 'extend-trial': {
        if (licence.type !== 'Trial') {
          return {
            ok: false,
            code: 'NotATrial',
            message: `It is a ${licence.type} licence: only trials are extended; paid ones follow their subscription.`,
          };
        }
        const extended = await extendTrial(ports.db, licence, action.days, now);
        return done(
          extended,
          true,
          `The trial now ends ${extended.expiresAt?.toISOString() ?? '–'} (${plural(action.days, 'day')} more).`,
        );
      }
      case 'change-orgs': {
        if (licence.type === 'Trial' || licence.edition !== 'Pro') {
          return {
            ok: false,
            code: 'NotPro',
            message:
              licence.type === 'Trial'
                ? 'It is a trial: trials have no org limit.'
                : `It is a ${licence.edition} licence: only Pro licences have an org count to change (Starter has 3, Enterprise no limit).`,
          };
        }
        if (licence.subscriptionId) {
          return {
            ok: false,
            code: 'FollowsSubscription',
            message: `Its org count follows subscription ${licence.subscriptionId}: change the subscription's quantity instead (the next sync would undo a change here).`,
          };
        }
        if (licence.quantity === action.orgs) {
          return done(
            licence,
            false,
            `It allows ${plural(action.orgs, 'org')} already; nothing changed.`,
          );
        }
        const changed = await createLicenceRepository(ports.db).setProQuantity(
          licence.id,
          action.orgs,
          now,
        );
        if (!changed)
          return { ok: false, code: 'LicenceNotFound', message: `No licence ${licenceId}.` };
        return done(
          changed,
          true,
          `It now allows ${plural(action.orgs, 'org')} (was ${licence.quantity}).`,
        );
      }
      case 'release-org': {
        const orgId = normalizeSalesforceOrgId(action.orgId) ?? action.orgId;
        const released = await releaseLicenceOrg(
          { db: ports.db, clock: ports.clock },
          { licenceId: licence.id, orgId, by: 'operator' },
        );
        if (!released.ok) {
          return {
            ok: false,
            code: released.code === 'OrgNotInUse' ? 'OrgNotInUse' : 'LicenceNotFound',
            message:
              released.code === 'OrgNotInUse'
                ? `Org ${orgId} holds no slot of this licence (not seen in the last 30 days).`
                : `No licence ${licenceId}.`,
          };
        }
        return done(licence, true, `Released org ${released.released.orgId}; its slot is free.`);
      }
      case 'resend-key': {
        await sendLostKeyEmail(
          {
            db: ports.db,
            secretKey: ports.secretKey,
            publicBaseUrl: ports.publicBaseUrl,
            clock: ports.clock,
          },
          licence.email,
        );
        return done(
          licence,
          true,
          `Queued the lost-key e-mail for ${licence.email}: a link per licence that replaces its key when clicked.`,
        );
      }
      case 'replace-key': {
        const replaced = await issueReplacementKey(ports, licence, action.keepTokenIds);
        if (!replaced.ok) {
          return {
            ok: false,
            code: 'KeyChanged',
            message: 'The key changed meanwhile; try again.',
          };
        }
        return done(
          replaced.licence,
          true,
          `Replaced the key; the new one is queued for ${licence.email}. ${plural(replaced.endedTokens, 'access token')} ended, ${replaced.keptTokens} kept.`,
        );
      }
      case 'revoke-token': {
        const revoked = await revokeAccessToken(
          { db: ports.db, secretKey: ports.secretKey },
          { id: action.tokenId, licenceId: licence.id },
          now,
        );
        if (!revoked.ok) {
          return {
            ok: false,
            code: 'TokenNotFound',
            message: 'This licence has no such access token.',
          };
        }
        return done(
          licence,
          !revoked.alreadyRevoked,
          revoked.alreadyRevoked
            ? `Access token "${revoked.record.name}" was revoked already.`
            : `Revoked access token "${revoked.record.name}".`,
        );
      }
    }
  });
}
