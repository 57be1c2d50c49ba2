import { startTransition, StrictMode, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { replayEarlyClicks } from './ssr/replay-early-clicks.ts';

/** Its effect runs after every effect of the hydrated page: handlers and state are in place. */
function ReplayEarlyClicks() {
  useEffect(replayEarlyClicks, []);
  return null;
}

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
      <ReplayEarlyClicks />
    </StrictMode>,
  );
});
