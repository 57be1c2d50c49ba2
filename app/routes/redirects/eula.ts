import { redirect } from 'react-router';
import { pages } from '#app/pages.ts';

/** `/eula` has one agreement so far, the CLI's: send visitors and old links there. */
export function loader() {
  return redirect(pages.eula.path, 301);
}
