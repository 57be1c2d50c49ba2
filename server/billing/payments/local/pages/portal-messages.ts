/** Why the portal offers no currency switch (decision 090); also its answer to a tampered one. */
export const currencyUnchangeableMessage =
  'A subscription keeps the currency it was bought in. To pay in another currency, cancel this subscription and buy a new one in that currency on the pricing page.';
