import { useSearchParams } from 'react-router';
import { ReplaceKeyPanel } from '../components/licences/ReplaceKeyPanel.tsx';
import { pages } from '../pages.ts';
import { metaFor } from '../root-data.ts';
import { perVisitHeaders } from '../http/per-visit-headers.ts';

export const meta = metaFor(pages.replaceLicenceKey);

/** Reached by a one-time link from an e-mail: the token in the URL is the visitor's own. */
export const headers = perVisitHeaders;

export default function ReplaceLicenceKeyPage() {
  const [params] = useSearchParams();
  return (
    <section className="container section">
      <h1>{pages.replaceLicenceKey.title}</h1>
      <ReplaceKeyPanel token={params.get('token')} />
    </section>
  );
}
