import { siteConfig } from '../site-config.ts';
import type { Edition } from './price-config.ts';

/**
 * A plan as e-mails and the portal name it: `Orgsmith Pro, 10 orgs`; Starter and Enterprise have
 * a fixed size, so only their edition is named.
 */
export function planName(edition: Edition, quantity: number): string {
  const product = siteConfig.productName;
  return edition === 'Pro' ? `${product} Pro, ${quantity} orgs` : `${product} ${edition}`;
}
