import { useCallback, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  calculatePrice,
  type PriceCalculation,
  type PriceSelection,
} from '#shared/pricing/index.ts';
import { parsePriceSelection, searchParamsWithSelection } from './price-selection.ts';

export interface PriceSelectionState {
  selection: PriceSelection;
  calculation: PriceCalculation;
  /** Changes part of the selection; the URL is replaced, never pushed. */
  update: (change: Partial<PriceSelection>) => void;
}

const keyOf = (s: PriceSelection) => `${s.size}|${s.billingPeriod}|${s.currency}`;

/**
 * The pricing selector's state, kept in the URL so a quote can be shared and renders on the
 * server as it does in the browser. Use it anywhere on the pricing page (e.g. a Buy button).
 *
 * URL updates are asynchronous navigations, so the latest choice is held as a draft until the URL
 * catches up; otherwise fast key presses or a drag would be overwritten by stale URLs.
 */
export function usePriceSelection(): PriceSelectionState {
  const [searchParams, setSearchParams] = useSearchParams();
  const fromUrl = useMemo(() => parsePriceSelection(searchParams), [searchParams]);
  const [draft, setDraft] = useState<PriceSelection | null>(null);
  const written = useRef(new Set<string>());
  const [seenUrlKey, setSeenUrlKey] = useState(keyOf(fromUrl));

  const urlKey = keyOf(fromUrl);
  if (urlKey !== seenUrlKey) {
    setSeenUrlKey(urlKey);
    // The URL caught up with the draft, or changed for another reason (back button, a link).
    const ownEcho = written.current.has(urlKey);
    if (!draft || !ownEcho || keyOf(draft) === urlKey) {
      setDraft(null);
      written.current.clear();
    }
  }

  const selection = draft ?? fromUrl;
  const calculation = useMemo(() => calculatePrice(selection), [selection]);
  const update = useCallback(
    (change: Partial<PriceSelection>) => {
      const next = { ...selection, ...change };
      if (keyOf(next) === keyOf(selection)) return;
      setDraft(next);
      written.current.add(keyOf(next));
      setSearchParams((current) => searchParamsWithSelection(current, next), {
        replace: true,
        preventScrollReset: true,
      });
    },
    [selection, setSearchParams],
  );
  return { selection, calculation, update };
}
