import { useSearchParams } from 'react-router';
import type { Route } from './+types/billing-portal.ts';
import { BillingPortalPanel } from '../components/billing-portal/BillingPortalPanel.tsx';
import { siteContext } from '../context.ts';
import { pages } from '../pages.ts';
import { metaFor } from '../root-data.ts';
import { perVisitHeaders } from '../http/per-visit-headers.ts';
import { keepDataWhileDialogsChange } from '../components/dialogs/revalidation.ts';

export const meta = metaFor(pages.billingPortal);

/** Reached by a one-time link from an e-mail: the token in the URL is the visitor's own. */
export const headers = perVisitHeaders;

// Opening or closing a dialog keeps the page's data (no round trip, no second lookup).
export const shouldRevalidate = keepDataWhileDialogsChange;

/** What the link is for, read on the server without using it (decision 123). */
export function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('token');
  const service = context.get(siteContext).services.billingPortal;
  return service ? service.readLink(token) : { state: 'missing' as const };
}

export default function BillingPortalPage({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  return (
    <section className="container section">
      <h1>{pages.billingPortal.title}</h1>
      <BillingPortalPanel status={loaderData} token={params.get('token')} />
    </section>
  );
}
