import type { ShouldRevalidateFunction } from 'react-router';
import { onlyDialogChanged } from './modal-url.ts';

/**
 * `shouldRevalidate` of every route with a loader: opening or closing a dialog keeps the page's
 * data, so a dialog opens at once instead of after a round trip to the server (and a slow answer
 * cannot hold it back). Every other navigation revalidates as React Router would.
 */
export const keepDataWhileDialogsChange: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) =>
  formMethod === undefined && onlyDialogChanged(currentUrl, nextUrl)
    ? false
    : defaultShouldRevalidate;
