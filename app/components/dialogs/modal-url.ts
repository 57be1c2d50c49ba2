/** The dialogs that live in the URL as `?modal=<name>`. */
export const modalNames = ['contact', 'portal-access', 'trial', 'quote', 'checkout'] as const;
export type ModalName = (typeof modalNames)[number];

export function isModalName(value: string | null): value is ModalName {
  return modalNames.some((name) => name === value);
}

/** The search string of the current URL with the dialog opened (or closed with `null`). */
export function searchWithModal(search: string, modal: ModalName | null): string {
  const params = new URLSearchParams(search);
  if (modal) params.set('modal', modal);
  else params.delete('modal');
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * History state of entries created by opening or closing a dialog. `openedModal` marks entries
 * pushed by opening one in the app, so closing can go back instead of pushing; `scrollKey` makes
 * the entry share the scroll position of the page underneath (see `scrollKeyOf`).
 */
export interface ModalHistoryState {
  openedModal?: ModalName;
  scrollKey: string;
}

export function isModalHistoryState(value: unknown): value is ModalHistoryState {
  return (
    typeof value === 'object' &&
    value !== null &&
    'scrollKey' in value &&
    typeof value.scrollKey === 'string'
  );
}

interface KeyedLocation {
  key: string;
  state: unknown;
}

/**
 * The key under which <ScrollRestoration> saves and restores a history entry's position. Dialog
 * entries reuse their page's key, so opening or closing a dialog keeps the page where it is, even
 * when the URL has a `#anchor`.
 */
export function scrollKeyOf(location: KeyedLocation): string {
  return isModalHistoryState(location.state) ? location.state.scrollKey : location.key;
}

/**
 * Whether going from `current` to `next` only opens, closes or switches a dialog: the same path
 * and the same parameters apart from `modal` (the hash aside). Such a step shows nothing new from
 * the server.
 */
export function onlyDialogChanged(current: URL, next: URL): boolean {
  if (current.pathname !== next.pathname) return false;
  if (current.searchParams.get('modal') === next.searchParams.get('modal')) return false;
  return searchWithModal(current.search, null) === searchWithModal(next.search, null);
}
