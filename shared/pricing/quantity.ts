import { priceConfig, type Edition } from './price-config.ts';

/** Whether a checkout quantity (the size) fits the edition: Starter 3, Pro 4..24, Enterprise 25. */
export function quantityIsValidForEdition(edition: Edition, quantity: number): boolean {
  if (!Number.isInteger(quantity)) return false;
  switch (edition) {
    case 'Starter':
      return quantity === priceConfig.starterStartSize;
    case 'Pro':
      return quantity >= priceConfig.proStartSize && quantity < priceConfig.enterpriseStartSize;
    case 'Enterprise':
      return quantity === priceConfig.enterpriseStartSize;
  }
}
