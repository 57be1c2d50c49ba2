import { redirect } from 'react-router';

/** An old link target; the community chat is linked from the site itself. */
export function loader() {
  return redirect('/', 301);
}
