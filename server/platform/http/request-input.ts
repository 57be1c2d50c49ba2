import type { Context } from 'hono';
import * as z from 'zod/mini';
import { errorCodes } from '#shared/contracts/error-codes.ts';

/** Bodies above this size are refused before they are read any further. */
export const MAX_JSON_BODY_BYTES = 16 * 1024;

export type RequestInput<T> = { ok: true; value: T } | { ok: false; response: Response };

interface FieldIssue {
  field: string;
  message: string;
}

/** 400 with `{"Error":"InvalidRequest","message":…,"issues":[…]}`. */
export function invalidRequest(c: Context, message: string, issues: FieldIssue[] = []): Response {
  return c.json({ Error: errorCodes.invalidRequest, message, issues }, 400);
}

function describeIssues(error: z.core.$ZodError, unknownLabel: string): FieldIssue[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return {
        field: issue.keys.join(', '),
        message: `${unknownLabel}: ${issue.keys.join(', ')}.`,
      };
    }
    const field = issue.path.map(String).join('.');
    return { field, message: field ? `${field}: ${issue.message}` : issue.message };
  });
}

function validate<S extends z.core.$ZodType>(
  c: Context,
  schema: S,
  input: unknown,
  unknownLabel: string,
): RequestInput<z.output<S>> {
  const result = z.safeParse(schema, input);
  if (result.success) return { ok: true, value: result.data };
  const issues = describeIssues(result.error, unknownLabel);
  return { ok: false, response: invalidRequest(c, issues.map((i) => i.message).join(' '), issues) };
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** Reads at most `maxBytes` of the body; `undefined` when it is longer. */
async function readLimited(request: Request, maxBytes: number): Promise<string | undefined> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) return undefined;
  // Node's HTTP parser delivers exactly the declared length: read it at once, without streams
  // (and without the copy `arrayBuffer()` makes); UTF-8 with replacement characters, as below.
  if (declared !== null && /^\d+$/.test(declared)) return request.text();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return utf8.decode(Buffer.concat(chunks));
}

/**
 * A JSON request body validated by `schema`: 415 for another content type, 413 when too large,
 * 400 for malformed JSON or values the schema refuses. Never throws.
 */
export async function readJsonBody<S extends z.core.$ZodType>(
  c: Context,
  schema: S,
  maxBytes = MAX_JSON_BODY_BYTES,
): Promise<RequestInput<z.output<S>>> {
  const contentType = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json') {
    return {
      ok: false,
      response: c.json(
        {
          Error: errorCodes.unsupportedMediaType,
          message: 'Send the request body as JSON with Content-Type: application/json.',
        },
        415,
      ),
    };
  }
  const text = await readLimited(c.req.raw, maxBytes);
  if (text === undefined) {
    return {
      ok: false,
      response: c.json(
        {
          Error: errorCodes.payloadTooLarge,
          message: `The request body is larger than ${maxBytes} bytes.`,
        },
        413,
      ),
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, response: invalidRequest(c, 'The request body is not valid JSON.') };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, response: invalidRequest(c, 'The request body must be a JSON object.') };
  }
  return validate(c, schema, json, 'Unknown fields');
}

/** The query string validated by `schema`; a parameter given twice is refused. */
export function readQuery<S extends z.core.$ZodType>(
  c: Context,
  schema: S,
): RequestInput<z.output<S>> {
  const params: Record<string, string> = {};
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (values.length > 1) {
      return {
        ok: false,
        response: invalidRequest(c, `The query parameter ${name} was given more than once.`),
      };
    }
    params[name] = values[0] ?? '';
  }
  return validate(c, schema, params, 'Unknown query parameters');
}

/** For endpoints whose input is the query string only. */
export async function refuseBody(c: Context): Promise<Response | undefined> {
  const text = await readLimited(c.req.raw, MAX_JSON_BODY_BYTES);
  if (text === '') return undefined;
  return invalidRequest(
    c,
    'This request takes its parameters in the query string and must have no body.',
  );
}
