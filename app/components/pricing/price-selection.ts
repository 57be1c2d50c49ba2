import {
  defaultSizeForEdition,
  editions,
  isBillingPeriod,
  isCurrency,
  isValidSize,
  sliderRange,
  type PriceSelection,
} from '#shared/pricing/index.ts';

/** The URL parameters that carry a quote: `?size=10&period=yearly&currency=EUR`. */
export const selectionParams = { size: 'size', period: 'period', currency: 'currency' } as const;
/**
 * A plan card sent as a form button (`?plan=Enterprise`): the plan's default size. Only a click
 * before the page hydrates (or without JavaScript) sends it; the browser then writes `size`.
 */
export const planParam = 'plan';

export const defaultSelection: PriceSelection = {
  size: sliderRange.defaultSize,
  billingPeriod: 'monthly',
  currency: 'USD',
};

function parseSize(raw: string | null): number | undefined {
  // Digits only: "1e1", " 10" or "10.0" are not sizes anyone shares.
  if (raw === null || !/^\d{1,3}$/.test(raw)) return undefined;
  const size = Number(raw);
  return isValidSize(size) ? size : undefined;
}

/** The selection a URL asks for; each missing or invalid value falls back to its default. */
export function parsePriceSelection(params: URLSearchParams): PriceSelection {
  const period = params.get(selectionParams.period)?.toLowerCase();
  const currency = params.get(selectionParams.currency)?.toUpperCase();
  const plan = editions.find((edition) => edition === params.get(planParam));
  return {
    size:
      (plan && defaultSizeForEdition(plan)) ??
      parseSize(params.get(selectionParams.size)) ??
      defaultSelection.size,
    billingPeriod: isBillingPeriod(period) ? period : defaultSelection.billingPeriod,
    currency: isCurrency(currency) ? currency : defaultSelection.currency,
  };
}

/**
 * The selection parameters of a URL as the page reads them, each in the spelling this page writes
 * (`period=YEARLY` → `yearly`, `size=010` → `10`); an invalid one is left out, since it falls back
 * to its default just as if it were absent, and `size` goes when a valid `plan` overrides it. The
 * server keys its stored copies of the pricing page by this (decision 120).
 */
export function canonicalSelectionParams(params: URLSearchParams): URLSearchParams {
  const canonical = new URLSearchParams();
  const plan = editions.find((edition) => edition === params.get(planParam));
  const size = parseSize(params.get(selectionParams.size));
  if (!plan && size !== undefined) canonical.set(selectionParams.size, String(size));
  const period = params.get(selectionParams.period)?.toLowerCase();
  if (isBillingPeriod(period)) canonical.set(selectionParams.period, period);
  const currency = params.get(selectionParams.currency)?.toUpperCase();
  if (isCurrency(currency)) canonical.set(selectionParams.currency, currency);
  if (plan) canonical.set(planParam, plan);
  return canonical;
}

/** `current` with the selection written in; other parameters (e.g. `modal`) are kept. */
export function searchParamsWithSelection(
  current: URLSearchParams,
  selection: PriceSelection,
): URLSearchParams {
  const next = new URLSearchParams(current);
  // Always in one order (size, period, currency) however the URL arrived, e.g. from the form.
  for (const name of [planParam, ...Object.values(selectionParams)]) next.delete(name);
  next.set(selectionParams.size, String(selection.size));
  next.set(selectionParams.period, selection.billingPeriod);
  next.set(selectionParams.currency, selection.currency);
  return next;
}

/** The path of a shareable quote. */
export function quotePath(selection: PriceSelection): string {
  return `/pricing?${searchParamsWithSelection(new URLSearchParams(), selection)}`;
}
