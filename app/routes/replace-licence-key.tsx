import { useSearchParams } from 'react-router';
import { ReplaceKeyPanel } from '../components/licences/ReplaceKeyPanel.tsx';
import { pages } from '../pages.ts';
import { metaFor } from '../root-data.ts';

export const meta = metaFor(pages.replaceLicenceKey);

export default function ReplaceLicenceKeyPage() {
  const [params] = useSearchParams();
  return (
    <section className="container section">
      <h1>{pages.replaceLicenceKey.title}</h1>
      <ReplaceKeyPanel token={params.get('token')} />
    </section>
  );
}
