/**
 * nginx's status for a request whose client hung up first: what the log and the metrics record
 * for it (nobody reads the answer).
 */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * Whether a request failed because its client went away before sending all of its body: its
 * socket is gone and the message incomplete. Reading the rest then fails with the client's
 * `ECONNRESET`, which is not the database's (decision 159).
 */
export function isClientAbort(
  incoming: { complete: boolean; destroyed: boolean } | undefined,
): boolean {
  return incoming !== undefined && !incoming.complete && incoming.destroyed;
}
