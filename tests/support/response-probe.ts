/**
 * A Response that counts reads of its body. @hono/node-server sends a response it was handed
 * untouched straight from the string it holds (its fast path); a middleware that reads `.body`
 * afterwards, or that rebuilds the response (Hono's `c.header()` once a response exists does),
 * turns it into a stream. Tests use this to show a middleware left a finished response alone.
 */
export class ResponseProbe extends Response {
  bodyReads = 0;

  override get body(): Response['body'] {
    this.bodyReads += 1;
    return super.body;
  }
}

/** JSON in a probe, as a route that builds its own Response would answer. */
export function probeJson(value: unknown, headers: Record<string, string> = {}): ResponseProbe {
  return new ResponseProbe(JSON.stringify(value), {
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}
