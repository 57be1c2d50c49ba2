import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import {
  scrollKeyOf,
  searchWithModal,
  type ModalHistoryState,
  type ModalName,
} from './modal-url.ts';

interface ModalLinkProps {
  modal: ModalName;
  className?: string;
  children: ReactNode;
  onClick?: () => void;
  /** Other parameters the dialog reads, written with it (e.g. the pricing selection). */
  withParams?: (current: URLSearchParams) => URLSearchParams;
}

/** A link that opens a dialog on the current page without scrolling or counting a page view. */
export function ModalLink({ modal, className, children, onClick, withParams }: ModalLinkProps) {
  const location = useLocation();
  const search = withParams
    ? `?${withParams(new URLSearchParams(location.search)).toString()}`
    : location.search;
  const state: ModalHistoryState = { openedModal: modal, scrollKey: scrollKeyOf(location) };
  return (
    <Link
      to={{
        pathname: location.pathname,
        search: searchWithModal(search, modal),
        hash: location.hash,
      }}
      state={state}
      preventScrollReset
      className={className}
      onClick={onClick}
    >
      {children}
    </Link>
  );
}
