/**
 * The query parameters a page's HTML may depend on: the open dialog (`?modal=`) and the pricing
 * page's quote (`?size=&period=&currency=`, or `?plan=` from a plan card sent as a form). The server renders shareable pages from the path and
 * the valid values of these alone (`canonicalPageState` in app/ssr/ says which page reads which),
 * and stores one copy per combination; any other parameter (`utm_source`, …) reaches only the
 * browser (decisions 100, 120). A page that needs another parameter is not shareable and says
 * `Cache-Control: no-store`.
 */
export const PAGE_STATE_PARAMS = ['modal', 'size', 'period', 'currency', 'plan'] as const;
