import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

function isIncomingMessage(value: unknown): value is IncomingMessage {
  return (
    typeof value === 'object' && value !== null && 'socket' in value && 'readableEnded' in value
  );
}

/**
 * The Node request behind a Hono context when @hono/node-server serves it; undefined for
 * in-process requests (`app.request()` in tests), which have no socket.
 */
export function nodeIncoming(c: Context): IncomingMessage | undefined {
  const env: unknown = c.env;
  if (typeof env !== 'object' || env === null) return undefined;
  const incoming: unknown = Reflect.get(env, 'incoming');
  return isIncomingMessage(incoming) ? incoming : undefined;
}
