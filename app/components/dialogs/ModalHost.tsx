import { lazy, Suspense, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import {
  isModalHistoryState,
  isModalName,
  scrollKeyOf,
  searchWithModal,
  type ModalHistoryState,
} from './modal-url.ts';

const loadModalDialog = () => import('./ModalDialog.tsx');
// Dialogs are code most visits never run: they load on demand, or when the browser is idle.
const ModalDialog = lazy(loadModalDialog);

/** Renders the dialog named by `?modal=` on any page; closing removes the parameter. */
export function ModalHost() {
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    const prefetch = () => void loadModalDialog();
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(prefetch, { timeout: 5000 });
      return () => window.cancelIdleCallback(id);
    }
    const timer = setTimeout(prefetch, 2000);
    return () => clearTimeout(timer);
  }, []);

  const modal = new URLSearchParams(location.search).get('modal');
  if (!isModalName(modal)) return null;

  const close = () => {
    // Opened inside the app: going back removes the entry we pushed. Landed on it: replace the URL.
    if (isModalHistoryState(location.state) && location.state.openedModal === modal) {
      void navigate(-1);
      return;
    }
    const state: ModalHistoryState = { scrollKey: scrollKeyOf(location) };
    void navigate(
      {
        pathname: location.pathname,
        search: searchWithModal(location.search, null),
        hash: location.hash,
      },
      { replace: true, preventScrollReset: true, state },
    );
  };

  return (
    <Suspense fallback={null}>
      <ModalDialog key={modal} modal={modal} onClose={close} />
    </Suspense>
  );
}
