import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';

/**
 * A stand-in for VIES, the EU's VAT number service (decision 210), over real HTTP: its REST
 * API's `POST /check-vat-number` with the answers VIES gives — valid with a consultation number,
 * invalid, or a member state unavailable (`MS_UNAVAILABLE`). The tests' app points `VIES_URL` at
 * one (`tests/support/test-app.ts`); in development run it with
 * `npm exec -- node tests/support/vies-fake.ts [port]` and set `VIES_URL` to the address it prints.
 */

export interface RegisteredCompany {
  name: string;
  address: string;
}

/**
 * The numbers the fake knows as registered: real-format numbers whose check digits pass. Any
 * other number, even one whose check digits pass, is invalid unless a test registers it.
 */
export const viesFakeRegistry: Readonly<Record<string, RegisteredCompany>> = {
  FR40303265045: { name: 'EXEMPLE SA', address: '1 RUE DE RIVOLI\n75001 PARIS' },
  ATU13585627: { name: 'BEISPIEL GMBH', address: 'STEPHANSPLATZ 1\nAT-1010 WIEN' },
  NL004495445B01: { name: 'VOORBEELD BV', address: 'DAM 1\n1012JS AMSTERDAM' },
  SE556677889901: { name: 'NORDLICHT SOFTWARE AB', address: 'STORGATAN 1\n111 23 STOCKHOLM' },
};

export interface ViesRequest {
  countryCode: string;
  vatNumber: string;
  requesterMemberStateCode?: string | undefined;
  requesterNumber?: string | undefined;
}

export interface ViesFake {
  readonly url: string;
  /** Every consultation received, in order. */
  readonly requests: readonly ViesRequest[];
  /** The consultation numbers given, by VAT ID (with prefix). */
  readonly consultations: ReadonlyMap<string, string>;
  /** Knows `vatId` (with its prefix) as registered from now on. */
  register(vatId: string, company?: RegisteredCompany): void;
  /** Answers `MS_UNAVAILABLE` for the member state's numbers (its VIES prefix, e.g. `FR`, `EL`). */
  setUnavailable(prefix: string, unavailable?: boolean): void;
  close(): Promise<void>;
}

const requestSchema = z.object({
  countryCode: z.string().regex(/^[A-Z]{2}$/),
  vatNumber: z.string().min(1).max(20),
  requesterMemberStateCode: z.string().optional(),
  requesterNumber: z.string().optional(),
});

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

export async function startViesFake(options: { port?: number } = {}): Promise<ViesFake> {
  const registry = new Map(Object.entries(viesFakeRegistry));
  const unavailable = new Set<string>();
  const requests: ViesRequest[] = [];
  const consultations = new Map<string, string>();
  let counter = 0;

  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://vies.invalid').pathname.replace(/\/$/, '');
      if (req.method !== 'POST' || !path.endsWith('/check-vat-number')) {
        send(res, 404, { actionSucceed: false, errorWrappers: [{ error: 'NOT_FOUND' }] });
        return;
      }
      let parsed: z.infer<typeof requestSchema>;
      try {
        parsed = requestSchema.parse(JSON.parse(await readBody(req)));
      } catch {
        send(res, 400, { actionSucceed: false, errorWrappers: [{ error: 'INVALID_INPUT' }] });
        return;
      }
      requests.push(parsed);
      const vatId = parsed.countryCode + parsed.vatNumber;
      if (unavailable.has(parsed.countryCode)) {
        send(res, 500, { actionSucceed: false, errorWrappers: [{ error: 'MS_UNAVAILABLE' }] });
        return;
      }
      const company = registry.get(vatId);
      const qualified = Boolean(parsed.requesterMemberStateCode && parsed.requesterNumber);
      counter += 1;
      const requestIdentifier =
        company && qualified ? `WAPIFAKE${String(counter).padStart(8, '0')}` : '';
      if (requestIdentifier) consultations.set(vatId, requestIdentifier);
      send(res, 200, {
        countryCode: parsed.countryCode,
        vatNumber: parsed.vatNumber,
        requestDate: new Date().toISOString(),
        valid: Boolean(company),
        requestIdentifier,
        name: company?.name ?? '---',
        address: company?.address ?? '---',
        userError: company ? 'VALID' : 'INVALID',
      });
    })().catch(() => send(res, 500, { actionSucceed: false, errorWrappers: [{ error: 'ERROR' }] }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('VIES fake is not listening');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    consultations,
    register(vatId, company = { name: 'REGISTERED COMPANY', address: '---' }) {
      registry.set(vatId, company);
    },
    setUnavailable(prefix, value = true) {
      if (value) unavailable.add(prefix);
      else unavailable.delete(prefix);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

// Run directly, it serves until stopped: VIES_URL for development.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const fake = await startViesFake({ port: Number(process.argv[2] ?? 0) });
  console.log(`VIES fake: VIES_URL=${fake.url}`);
}
