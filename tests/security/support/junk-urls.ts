import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { pages } from '#app/pages.ts';

/**
 * What a scanner or an attacker sends (issue 17, item 4): every URL distinct, so no cache keyed by
 * the raw URL ever sees one twice.
 */
export type JunkKind =
  | 'unknown path'
  | 'unknown parameter'
  | 'invalid value'
  | 'path spelling'
  | 'unknown /api'
  | 'unknown /account/v1'
  | 'unknown /assets';

export interface JunkUrl {
  kind: JunkKind;
  path: string;
}

const kinds: readonly JunkKind[] = [
  'unknown path',
  'unknown parameter',
  'invalid value',
  'path spelling',
  'unknown /api',
  'unknown /account/v1',
  'unknown /assets',
];

/** `text` with the letters chosen by the bits of `n` upper-cased: 2^letters spellings. */
function spelled(text: string, n: number): string {
  let bit = 0;
  return [...text]
    .map((char) => {
      if (!/[a-z]/.test(char)) return char;
      const upper = (n >> bit++) & 1;
      return upper ? char.toUpperCase() : char;
    })
    .join('');
}

/** One of four shapes, taking turns. */
function oneOf(n: number, shapes: readonly [string, string, string, string]): string {
  return shapes[n % 4] ?? shapes[0];
}

function junkOf(kind: JunkKind, n: number): string {
  switch (kind) {
    case 'unknown path':
      return oneOf(n, [`/wp-admin/x${n}.php`, `/.env.${n}`, `/blog/post-${n}`, `/features/x${n}`]);
    case 'unknown parameter':
      return oneOf(n, [
        `/pricing?size=7&utm_source=${n}`,
        `/imprint?fbclid=${n}`,
        `/?gclid=${n}&ref=x`,
        `/download?${n}`,
      ]);
    case 'invalid value':
      return oneOf(n, [
        `/?modal=${n}`,
        `/pricing?size=${7000 + n}`,
        `/pricing?currency=X${n}&period=p${n}`,
        `/support?size=${n}&plan=P${n}`,
      ]);
    case 'path spelling':
      // Routes match case-insensitively and with a trailing slash.
      return `${spelled('/features/toolbox-commands', n + 1)}${n % 2 ? '/' : ''}`;
    case 'unknown /api':
      return `/api/x${n}`;
    case 'unknown /account/v1':
      return `/account/v1/x${n}`;
    case 'unknown /assets':
      return `/assets/x${n}.js`;
  }
}

/** `count` distinct junk URLs, the kinds taking turns. */
export function junkUrls(count: number): JunkUrl[] {
  return Array.from({ length: count }, (_, i) => {
    const kind = kinds[i % kinds.length] ?? 'unknown path';
    return { kind, path: junkOf(kind, Math.floor(i / kinds.length)) };
  });
}

/** The site's real pages as visitors ask for them, a shared quote and an open dialog included. */
export function realPagePaths(): string[] {
  const perVisit = new Set<string>([pages.checkoutSuccess.path, pages.replaceLicenceKey.path]);
  return [
    ...Object.values(pages)
      .map((page) => page.path)
      .filter((path) => !perVisit.has(path)),
    '/pricing?size=10&period=yearly&currency=EUR',
    '/?modal=contact',
  ];
}

export interface Answer {
  path: string;
  status: number;
  ms: number;
  bytes: Buffer;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * GETs every path, `concurrency` at a time over kept-alive connections, as a browser asks
 * (brotli accepted, not decoded), and times each answer to its last byte.
 */
export async function getAll(
  baseUrl: string,
  paths: readonly string[],
  concurrency: number,
): Promise<Answer[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const answers: Answer[] = new Array(paths.length);
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const index = next++;
      answers[index] = await get(agent, baseUrl, paths[index] ?? '/');
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
  return answers;
}

function get(agent: Agent, baseUrl: string, path: string): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}${path}`,
      { agent, headers: { 'accept-encoding': 'br, gzip', accept: 'text/html' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            path,
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            bytes: Buffer.concat(chunks),
            headers: res.headers,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The value at fraction `q` (0.5 = median) of the sorted numbers. */
export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** Resident memory of a process in MB (Linux /proc). */
export async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) / 1024;
}
