import { useSearchParams } from 'react-router';
import type { Route } from './+types/invoice-order.ts';
import { InvoiceOrderPanel } from '../components/checkout/InvoiceOrderPanel.tsx';
import { siteContext } from '../context.ts';
import { pages } from '../pages.ts';
import { perVisitHeaders } from '../http/per-visit-headers.ts';
import { metaFor } from '../root-data.ts';
import { keepDataWhileDialogsChange } from '../components/dialogs/revalidation.ts';

export const meta = metaFor(pages.invoiceOrder);

/** Reached by the one-time link of an invoice order's e-mail: the token is the visitor's own. */
export const headers = perVisitHeaders;

// Opening or closing a dialog keeps the page's data (no round trip, no second lookup).
export const shouldRevalidate = keepDataWhileDialogsChange;

/** The order the link confirms, read on the server without using it (decision 153). */
export function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('token');
  const service = context.get(siteContext).services.invoiceOrders;
  return service ? service.readLink(token) : { state: 'missing' as const };
}

export default function InvoiceOrderPage({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  return (
    <section className="container section">
      <h1>{pages.invoiceOrder.title}</h1>
      <InvoiceOrderPanel status={loaderData} token={params.get('token')} />
    </section>
  );
}
