import { createServer, type RequestListener, type Server } from 'node:http';

/** Headers arrive in one round trip from any real client; a proxy's in a few milliseconds. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/**
 * The whole request, body included: the largest body any route takes is a 512 KiB Stripe event
 * (no route accepts a streamed upload), which arrives in well under a second.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Open connections per listening address; each costs a file descriptor and some memory. */
export const DEFAULT_MAX_CONNECTIONS = 1_000;
/**
 * How often Node looks for requests past their deadline. Its own default (30 s) held a client
 * sending a header line every 10 s for 82 s against a 60 s limit.
 */
const MAX_CHECKING_INTERVAL_MS = 1_000;

export interface ConnectionLimits {
  /** Milliseconds from a connection's first byte of a request until its headers are complete. */
  headersTimeoutMs: number;
  /** Milliseconds from the first byte until the whole request (body included) is received. */
  requestTimeoutMs: number;
  /** Connections beyond this are closed as they arrive. */
  maxConnections: number;
}

/**
 * An HTTP server that hangs up on slow clients (decision 206): a request whose headers take
 * longer than `headersTimeoutMs`, or whose body ends later than `requestTimeoutMs`, gets a 408
 * and its connection closed; connections beyond `maxConnections` are closed at once.
 */
export function createLimitedServer(limits: ConnectionLimits, listener: RequestListener): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(
        MAX_CHECKING_INTERVAL_MS,
        Math.ceil(limits.headersTimeoutMs / 4),
      ),
    },
    listener,
  );
  server.maxConnections = limits.maxConnections;
  return server;
}
