import { useSearchParams } from 'react-router';
import type { Route } from './+types/quote-accept.ts';
import { QuoteAcceptPanel } from '../components/quotes/QuoteAcceptPanel.tsx';
import { siteContext } from '../context.ts';
import { pages } from '../pages.ts';
import { perVisitHeaders } from '../http/per-visit-headers.ts';
import { metaFor } from '../root-data.ts';
import { keepDataWhileDialogsChange } from '../components/dialogs/revalidation.ts';

export const meta = metaFor(pages.quoteAccept);

/**
 * Reached by a quote's own link: rendered per visit, never stored. The site's referrer policy
 * already sends other origins no path, so the token stays here.
 */
export const headers = perVisitHeaders;

// Opening or closing a dialog keeps the page's data (no round trip, no second lookup).
export const shouldRevalidate = keepDataWhileDialogsChange;

/** The quote the link names, read on the server (decision 142). */
export function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('token');
  const service = context.get(siteContext).services.quotes;
  return service ? service.readSummary(token) : { state: 'missing' as const };
}

export default function QuoteAcceptPage({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  return (
    <section className="container section">
      <h1>{pages.quoteAccept.title}</h1>
      <QuoteAcceptPanel quote={loaderData} token={params.get('token')} />
    </section>
  );
}
