import { isModalName } from '../components/dialogs/modal-url.ts';
import { canonicalSelectionParams } from '../components/pricing/price-selection.ts';
import { pages } from '../pages.ts';

/**
 * The page state of a URL as its page reads it, in one spelling: the quote on the pricing page and
 * the open dialog on every page, each valid value only. The server stores one copy of a page per
 * result and renders it from exactly this (decision 120), so campaign tags, invalid values and
 * parameters a page does not read all share the copy the page renders for them anyway. `pathname`
 * is the route's own path (`/pricing`, not `/Pricing/`); the result is a query without `?`.
 */
export function canonicalPageState(pathname: string, query: string): string {
  const params = new URLSearchParams(query);
  const state =
    pathname === pages.pricing.path ? canonicalSelectionParams(params) : new URLSearchParams();
  const modal = params.get('modal');
  // Last, where opening a dialog appends it to the page's own URL.
  if (isModalName(modal)) state.set('modal', modal);
  return state.toString();
}
