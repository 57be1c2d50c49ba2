import { createAccessTokenRepository } from '#server/licensing/access-tokens/access-token-repository.ts';
import { createLicenceValidationRepository } from '#server/licensing/licence-validation/licence-validation-repository.ts';
import {
  licenceEntitlements,
  type LicenceEntitlements,
} from '#server/licensing/licence-validation/licence-entitlements.ts';
import type { Executor } from '#server/platform/db/database.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { ORG_ACTIVE_DAYS } from './check-licence.ts';
import { hashLicenceKey, parseLicenceKey } from './licence-key.ts';
import { createLicenceRepository, type Licence } from './licence-repository.ts';
import { licenceState } from './licence-state.ts';

/** What a lookup reads of the service's ports. */
export interface LicenceLookupPorts {
  database: { db: Executor };
  secretKey: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type LicenceLookup =
  | { ok: true; licences: Licence[] }
  | {
      ok: false;
      /** The text names no licence in any form: the operator's mistake, not a miss. */
      code: 'KeyTypo' | 'NotAReference';
      message: string;
    };

/**
 * Licences named by what an operator has at hand: a licence id, a licence key (any spelling the
 * customer typed) or an e-mail address (every licence of that mailbox).
 */
export async function findLicences(
  ports: LicenceLookupPorts,
  reference: string,
): Promise<LicenceLookup> {
  const repository = createLicenceRepository(ports.database.db);
  const text = reference.trim();
  if (UUID.test(text)) {
    const licence = await repository.findById(text.toLowerCase());
    return { ok: true, licences: licence ? [licence] : [] };
  }
  if (text.includes('@')) {
    return {
      ok: true,
      licences: await repository.findByNormalizedEmail(normalizeEmailAddress(text)),
    };
  }
  const parsed = parseLicenceKey(text);
  if (!parsed.ok) {
    return parsed.reason === 'ChecksumMismatch'
      ? {
          ok: false,
          code: 'KeyTypo',
          message: `"${text}" looks like a licence key but has a typo (its check characters do not match).`,
        }
      : {
          ok: false,
          code: 'NotAReference',
          message: `"${text}" is neither a licence id, a licence key nor an e-mail address.`,
        };
  }
  const licence = await repository.findByKeyHash(hashLicenceKey(ports.secretKey, parsed.key));
  return { ok: true, licences: licence ? [licence] : [] };
}

export type OneLicence =
  | { ok: true; licence: Licence }
  | {
      ok: false;
      code: 'KeyTypo' | 'NotAReference' | 'NoLicence' | 'SeveralLicences';
      message: string;
    };

/** Exactly one licence, or why not (several: the candidates, to name one by its id). */
export async function findOneLicence(
  ports: LicenceLookupPorts,
  reference: string,
): Promise<OneLicence> {
  const found = await findLicences(ports, reference);
  if (!found.ok) return found;
  const [licence] = found.licences;
  if (!licence)
    return { ok: false, code: 'NoLicence', message: `No licence matches "${reference}".` };
  if (found.licences.length > 1) {
    return {
      ok: false,
      code: 'SeveralLicences',
      message: [
        `${found.licences.length} licences match "${reference}"; name one by its id:`,
        ...found.licences.map((l) => `  ${l.id}  ${l.type} ${l.edition}, key …${l.keyHint}`),
      ].join('\n'),
    };
  }
  return { ok: true, licence };
}

/** A licence as support reads it: what `licences find` prints, without even its key's hash. */
export interface LicenceDetails {
  licence: Omit<Licence, 'keyHash'>;
  /** What validation answers for it now: `valid`, `revoked`, … */
  state: string;
  /** Orgs seen within ORG_ACTIVE_DAYS, which count against `orgLimit`. */
  orgsInUse: number;
  orgLimit: LicenceEntitlements['orgs'];
  orgsSeen: number;
  tokensActive: number;
  tokensAll: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Even a keyed hash of the key stays out of operator output. */
export function withoutKeyHash(licence: Licence): Omit<Licence, 'keyHash'> {
  const { keyHash, ...shown } = licence;
  void keyHash;
  return shown;
}

/** The licence with its state, its orgs in use and its access tokens (decision 232). */
export async function licenceDetails(
  ports: { database: { db: Executor }; clock: () => Date },
  licence: Licence,
): Promise<LicenceDetails> {
  const now = ports.clock();
  const activeSince = new Date(now.getTime() - ORG_ACTIVE_DAYS * DAY_MS);
  const orgs = await createLicenceValidationRepository(ports.database.db).listOrgs(licence.id);
  const tokens = await createAccessTokenRepository(ports.database.db).listForLicence(licence.id);
  return {
    licence: withoutKeyHash(licence),
    state: licenceState(licence, now),
    orgsInUse: orgs.filter((org) => org.lastSeenAt >= activeSince).length,
    orgLimit: licenceEntitlements(licence).orgs,
    orgsSeen: orgs.length,
    tokensActive: tokens.filter((token) => !token.revokedAt).length,
    tokensAll: tokens.length,
  };
}
