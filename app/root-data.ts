import type { MetaArgs, MetaDescriptor } from 'react-router';
import type { Currency } from '#shared/pricing/index.ts';
import type { PageInfo } from './pages.ts';
import { pageMeta } from './seo.ts';

export interface RootData {
  publicBaseUrl: string;
  accountApiUrl: string;
  gaMeasurementId: string | null;
  testPayments: boolean;
  /** The currencies pay by invoice is offered in: those with a seller's bank account (decision 218). */
  invoiceCurrencies: Currency[];
  year: number;
}

function isRootData(value: unknown): value is RootData {
  return typeof value === 'object' && value !== null && 'publicBaseUrl' in value;
}

/** The root loader's data as seen from any route's `meta` function. */
export function rootDataFromMatches(matches: MetaArgs['matches']): RootData | undefined {
  const root = matches.find((match) => match?.id === 'root');
  return isRootData(root?.loaderData) ? root.loaderData : undefined;
}

/** A `meta` export for a page of `pages.ts`, plus optional extra descriptors (e.g. JSON-LD). */
export function metaFor(page: PageInfo, extra?: (args: MetaArgs) => MetaDescriptor[]) {
  return (args: MetaArgs): MetaDescriptor[] =>
    pageMeta(page, rootDataFromMatches(args.matches)?.publicBaseUrl ?? '', extra?.(args));
}
