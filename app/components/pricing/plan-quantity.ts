import {
  defaultSizeForEdition,
  editionForSize,
  type Edition,
  type PriceSelection,
} from '#shared/pricing/index.ts';

/** The size a plan's call to action buys: the selected size if it is that plan's, else its default. */
export function quantityForEdition(edition: Edition, selection: PriceSelection): number {
  return editionForSize(selection.size) === edition
    ? selection.size
    : defaultSizeForEdition(edition);
}
