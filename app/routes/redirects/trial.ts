import { redirect } from 'react-router';
import type { Route } from './+types/trial.ts';

/** `/trial` is a shareable entry point to the free-trial dialog on the home page; `?ref=` is kept. */
export function loader({ request }: Route.LoaderArgs) {
  const params = new URLSearchParams({ modal: 'trial' });
  const ref = new URL(request.url).searchParams.get('ref');
  if (ref) params.set('ref', ref);
  return redirect(`/?${params.toString()}`, 302);
}
