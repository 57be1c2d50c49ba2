import { calendarDateIn } from '#server/billing/calendar-date.ts';
import type { Logger } from '#server/platform/logger.ts';
import { reverseChargeMayApply } from '#shared/pricing/vat.ts';
import type { VatIdConfirmation } from '#shared/pricing/vat-id-confirmation.ts';
import { siteConfig } from '#shared/site-config.ts';
import { createViesClient, type ViesClient } from './vies-client.ts';

export interface VatIdConfirmationDeps {
  vies: ViesClient;
  clock: () => Date;
  logger?: Pick<Logger, 'warn'> | undefined;
}

/** The VIES client of the running service (`VIES_URL`). */
export function viesClientOf(env: { VIES_URL: string }): ViesClient {
  return createViesClient({ baseUrl: env.VIES_URL });
}

/**
 * Asks VIES about a buyer's VAT ID when the reverse charge could apply (decision 210): an EU
 * state other than Germany and an ID of that state's format whose check digits pass
 * (`reverseChargeMayApply`); anything else is never sent. VIES's confirmation, with its
 * consultation number and the day, is what `decideVat` takes; `null` when VIES says the ID is
 * invalid or gives no answer (a member state unavailable, a timeout), so 19 % is charged.
 */
export async function confirmVatId(
  deps: VatIdConfirmationDeps,
  buyer: { country: string; vatId?: string | null | undefined },
): Promise<VatIdConfirmation | null> {
  const vatId = buyer.vatId ?? undefined;
  if (!vatId || !reverseChargeMayApply({ country: buyer.country, vatId })) return null;
  const answer = await deps.vies.checkVatNumber(vatId);
  if (answer.status === 'unavailable') {
    deps.logger?.warn({ vatId, reason: answer.reason }, 'VIES gave no answer: VAT 19 % charged');
  }
  if (answer.status !== 'valid') return null;
  return {
    vatId,
    by: 'vies',
    consultationNumber: answer.consultationNumber,
    confirmedOn: calendarDateIn(deps.clock(), siteConfig.company.timeZone),
    name: answer.name,
    address: answer.address,
  };
}
