import { z } from 'zod';
import { siteConfig } from '#shared/site-config.ts';

/**
 * A client of VIES, the EU's VAT number service, by its REST API (decision 210):
 * `POST {VIES_URL}/check-vat-number`. Our own VAT ID rides along as the requester, so a valid
 * answer carries a consultation number (`requestIdentifier`), the proof a tax audit asks for.
 */

/** The EU's own endpoint; `VIES_URL` points elsewhere (tests and development use the fake). */
export const DEFAULT_VIES_URL = 'https://ec.europa.eu/taxation_customs/vies/rest-api';

/** How long one consultation may take: VIES waits on the member state, which can be slow. */
export const VIES_TIMEOUT_MS = 8_000;

export type ViesAnswer =
  | {
      status: 'valid';
      consultationNumber: string;
      name: string | null;
      address: string | null;
    }
  | { status: 'invalid' }
  /** No answer to rely on: VIES or the member state unavailable, a timeout, a reply we cannot read. */
  | { status: 'unavailable'; reason: string };

/** VIES writes `---` where a member state discloses no name or address. */
const disclosed = z
  .string()
  .nullish()
  .transform((value) => (value && value.trim() !== '---' ? value.trim() : null));

const answerSchema = z.object({
  valid: z.boolean(),
  requestIdentifier: z.string().nullish(),
  /** `VALID`, `INVALID`, or why there is no answer (`MS_UNAVAILABLE`, `TIMEOUT`…). */
  userError: z.string().nullish(),
  name: disclosed,
  address: disclosed,
});

const errorSchema = z.object({
  errorWrappers: z.array(z.object({ error: z.string() })).min(1),
});

export interface ViesClient {
  /** Asks VIES about a normalized EU VAT ID with its prefix (`FR40303265045`, `EL…`). */
  checkVatNumber(vatId: string): Promise<ViesAnswer>;
}

export function createViesClient(options: {
  baseUrl: string;
  timeoutMs?: number;
  /** Our VAT ID, sent as the requester (default: the seller's). */
  requesterVatId?: string;
}): ViesClient {
  const endpoint = `${options.baseUrl.replace(/\/$/, '')}/check-vat-number`;
  const requester = options.requesterVatId ?? siteConfig.company.vatId;
  const timeoutMs = options.timeoutMs ?? VIES_TIMEOUT_MS;
  return {
    async checkVatNumber(vatId) {
      let response: Response;
      let body: unknown;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            countryCode: vatId.slice(0, 2),
            vatNumber: vatId.slice(2),
            requesterMemberStateCode: requester.slice(0, 2),
            requesterNumber: requester.slice(2),
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        body = await response.json();
      } catch (error) {
        return { status: 'unavailable', reason: error instanceof Error ? error.name : 'fetch' };
      }
      const failed = errorSchema.safeParse(body);
      if (!response.ok || failed.success) {
        const reason = failed.success
          ? failed.data.errorWrappers.map((wrapper) => wrapper.error).join(', ')
          : `HTTP ${response.status}`;
        return { status: 'unavailable', reason };
      }
      const parsed = answerSchema.safeParse(body);
      if (!parsed.success) return { status: 'unavailable', reason: 'unreadable answer' };
      const answer = parsed.data;
      const verdict = answer.userError ?? (answer.valid ? 'VALID' : 'INVALID');
      if (verdict === 'INVALID' || (verdict === 'VALID' && !answer.valid)) {
        return { status: 'invalid' };
      }
      if (verdict !== 'VALID') return { status: 'unavailable', reason: verdict };
      // Without a consultation number the answer proves nothing to an auditor: not a confirmation.
      if (!answer.requestIdentifier)
        return { status: 'unavailable', reason: 'no consultation number' };
      return {
        status: 'valid',
        consultationNumber: answer.requestIdentifier,
        name: answer.name,
        address: answer.address,
      };
    },
  };
}
