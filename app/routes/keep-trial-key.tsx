import { useSearchParams } from 'react-router';
import type { Route } from './+types/keep-trial-key.ts';
import { KeepTrialKeyPanel } from '../components/licences/KeepTrialKeyPanel.tsx';
import { siteContext } from '../context.ts';
import { pages } from '../pages.ts';
import { perVisitHeaders } from '../http/per-visit-headers.ts';
import { metaFor } from '../root-data.ts';
import { keepDataWhileDialogsChange } from '../components/dialogs/revalidation.ts';

export const meta = metaFor(pages.keepTrialKey);

/** Reached by the link of a licence e-mail: the token in the URL is the visitor's own. */
export const headers = perVisitHeaders;

// Opening or closing a dialog keeps the page's data (no round trip, no second lookup).
export const shouldRevalidate = keepDataWhileDialogsChange;

/** What the link would do, read on the server without using it (decision 213). */
export function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('token');
  const service = context.get(siteContext).services.keepTrialKey;
  return service ? service.readLink(token) : { state: 'missing' as const };
}

export default function KeepTrialKeyPage({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  return (
    <section className="container section">
      <h1>{pages.keepTrialKey.title}</h1>
      <KeepTrialKeyPanel status={loaderData} token={params.get('token')} />
    </section>
  );
}
