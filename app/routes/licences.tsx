import type { Route } from './+types/licences.ts';
import { keepDataWhileDialogsChange } from '../components/dialogs/revalidation.ts';
import { LicencesView } from '../components/licence-page/LicencesView.tsx';
import { SignInPanel } from '../components/licence-page/SignInPanel.tsx';
import { siteContext } from '../context.ts';
import { perVisitHeaders } from '../http/per-visit-headers.ts';
import { pages } from '../pages.ts';
import { metaFor } from '../root-data.ts';

export const meta = metaFor(pages.licences);

/** One visitor's own licences, by the session cookie: never stored or shared (decision 229). */
export const headers = perVisitHeaders;

export const shouldRevalidate = keepDataWhileDialogsChange;

export function loader({ request, context }: Route.LoaderArgs) {
  const service = context.get(siteContext).services.licencePage;
  return service
    ? service.read(request.headers.get('cookie'))
    : Promise.resolve({ signedIn: false as const });
}

export default function LicencesPage({ loaderData }: Route.ComponentProps) {
  return (
    <section className="container section">
      <h1>{pages.licences.title}</h1>
      {loaderData.signedIn ? <LicencesView view={loaderData.view} /> : <SignInPanel />}
    </section>
  );
}
