import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errorCodes } from '#shared/contracts/error-codes.ts';
import { nodeIncoming } from './node-bindings.ts';
import type { AppEnv } from './types.ts';

/** Every form and JSON body the site and the CLI send fits many times over (decision 127). */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;

/** What an unread body may still send before we hang up rather than read it away. */
const DRAINABLE_BYTES = DEFAULT_BODY_LIMIT_BYTES;
/**
 * After answering early we read (and drop) at most this much, for at most this long, so the
 * client reads our answer before we hang up: closing at once makes the kernel reset the
 * connection, and a client still sending loses the answer with it ("lingering close").
 */
const LINGER_BYTES = 256 * 1024;
const LINGER_MS = 1000;

/** The answer to a GET or HEAD that comes with a body. */
const BODY_NOT_ALLOWED = 'A GET or HEAD request takes no body.';

/**
 * Whether a request's headers announce a body: a length above zero, or any transfer coding.
 * The stored-page fast path leaves such a request to `bodyLimits` (decision 159).
 */
export function announcesBody(headers: {
  contentLength: string | undefined;
  transferEncoding: string | undefined;
}): boolean {
  if (headers.transferEncoding !== undefined) return true;
  return headers.contentLength !== undefined && !/^0+$/.test(headers.contentLength.trim());
}

function kibibytes(bytes: number): string {
  return `${Math.round(bytes / 1024)} KiB`;
}

/**
 * Hangs up after answering a request whose body is still arriving and was not read: otherwise
 * @hono/node-server reads up to 64 MB of it away to keep the connection, which an attacker
 * fills at will (decision 127). The answer says `Connection: close`; Node then ends the socket
 * with `destroySoon()`, which this connection's own version turns into a lingering close.
 */
function hangUpIfBodyUnread(c: Parameters<MiddlewareHandler<AppEnv>>[0]): void {
  const incoming = nodeIncoming(c);
  if (!incoming || incoming.readableEnded) return;
  const declared = Number(c.req.header('content-length') ?? 'NaN');
  if (Number.isFinite(declared) && declared <= DRAINABLE_BYTES) return;
  c.header('Connection', 'close');
  const socket = incoming.socket;
  socket.destroySoon = () => {
    socket.end();
    const hangUp = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(hangUp, LINGER_MS);
    timer.unref();
    // Counted on the socket, not the request: Node has already "dumped" the request of an
    // unread declared body, and a dumped request emits no data while its socket reads on, so a
    // count on the request let a declared body be read at wire speed for the whole linger time.
    // Past the allowance the socket stops reading instead of hanging up: the client's sending
    // then stalls on TCP's flow control (nothing for us to read or keep), while it can still
    // read our answer; a hang-up now would reset the connection and lose the answer with it.
    const readBefore = socket.bytesRead;
    socket.on('data', () => {
      if (socket.bytesRead - readBefore > LINGER_BYTES) socket.pause();
    });
    incoming.once('end', hangUp);
    incoming.resume();
  };
}

/** 413 JSON naming the limit. */
function tooLarge(c: Context<AppEnv>, maxSize: number): Response {
  return c.json(
    {
      Error: errorCodes.payloadTooLarge,
      message: `The request body is larger than ${kibibytes(maxSize)}.`,
    },
    413,
  );
}

/**
 * First in the chain, before anything reads a body (ARCHITECTURE.md): a declared length above
 * the limit is refused before a byte is read; a chunked body is counted as it arrives and refused
 * the moment it passes the limit. Answers 413 JSON, then hangs up. A GET or HEAD with a body is
 * refused at once with 400, unread (nothing would read it, but Node would drain it whole).
 */
export function bodyLimits(options: {
  /** The limit of a path; the default suits forms and JSON. */
  limitFor: (path: string) => number;
}): MiddlewareHandler<AppEnv> {
  const limiters = new Map<number, MiddlewareHandler<AppEnv>>();
  const limiterOf = (maxSize: number): MiddlewareHandler<AppEnv> => {
    let limiter = limiters.get(maxSize);
    if (!limiter) {
      limiter = bodyLimit({
        maxSize,
        onError: (c) => tooLarge(c, maxSize),
      });
      limiters.set(maxSize, limiter);
    }
    return limiter;
  };
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') {
      const withBody = announcesBody({
        contentLength: c.req.header('content-length'),
        transferEncoding: c.req.header('transfer-encoding'),
      });
      if (!withBody) return next();
      hangUpIfBodyUnread(c);
      return c.json({ Error: errorCodes.invalidRequest, message: BODY_NOT_ALLOWED }, 400);
    }
    const maxSize = options.limitFor(c.req.path);
    const contentLength = c.req.header('content-length');
    if (c.req.header('transfer-encoding') === undefined) {
      // A declared length is judged from the header alone, without turning Node's request into a
      // web stream (hono's limiter reads `c.req.raw.body`, which costs a quarter of a validation).
      // Without a length or a transfer coding, an HTTP/1.1 request has no body.
      if (contentLength !== undefined && Number.parseInt(contentLength, 10) > maxSize) {
        c.res = tooLarge(c, maxSize);
      } else {
        await next();
      }
      hangUpIfBodyUnread(c);
      return;
    }
    const refusal = await limiterOf(maxSize)(c, next);
    if (refusal instanceof Response) c.res = refusal;
    hangUpIfBodyUnread(c);
  };
}
