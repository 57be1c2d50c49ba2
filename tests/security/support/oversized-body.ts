import { connect } from 'node:net';

export interface OversizedBodyResult {
  /** The status line's code, or undefined when the server hung up without answering. */
  status: number | undefined;
  /** Bytes handed to the socket before the server's answer or hang-up (kernel buffers count). */
  bytesWritten: number;
  /** The response's headers and the start of its body. */
  response: string;
  /**
   * Bytes the server process read meanwhile (`rchar` of /proc/<pid>/io, sockets and files alike),
   * when `serverPid` was given: what the server took in, whatever the kernel's socket buffers
   * held. Loopback buffers grow to tens of MB under load (`tcp_rmem` max 32 MB here), so the
   * client's count alone says more about the machine's load than about the server.
   */
  serverBytesRead?: number;
}

/**
 * Sends `totalBytes` of body to `path` over a raw connection, as fast as the socket takes it,
 * chunked or with a declared Content-Length, and stops when the server answers or hangs up.
 */
export function sendOversizedBody(options: {
  port: number;
  /** POST unless given. */
  method?: string;
  path: string;
  totalBytes: number;
  chunked: boolean;
  contentType: string;
  headers?: Record<string, string>;
  /** The server's process, to count what it read (`serverBytesRead`). */
  serverPid?: number;
}): Promise<OversizedBodyResult> {
  const { serverPid } = options;
  if (serverPid === undefined) return sendBody(options);
  return (async () => {
    const before = await bytesReadBy(serverPid);
    const result = await sendBody(options);
    // A server that went on reading after it answered would show it here.
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { ...result, serverBytesRead: (await bytesReadBy(serverPid)) - before };
  })();
}

function sendBody(options: Parameters<typeof sendOversizedBody>[0]): Promise<OversizedBodyResult> {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  return new Promise((resolve) => {
    const socket = connect(options.port, '127.0.0.1');
    let response = '';
    let sent = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(response)?.[1];
      resolve({
        status: status ? Number(status) : undefined,
        bytesWritten: socket.bytesWritten,
        response: response.slice(0, 2000),
      });
      socket.destroy();
    };
    socket.on('data', (data: Buffer) => {
      response += data.toString('latin1');
      // The whole answer is in once the blank line and a short body have arrived.
      if (/\r\n\r\n[\s\S]*\}/.test(response)) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
    const extra = Object.entries(options.headers ?? {})
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    const framing = options.chunked
      ? 'Transfer-Encoding: chunked\r\n'
      : `Content-Length: ${options.totalBytes}\r\n`;
    socket.write(
      `${options.method ?? 'POST'} ${options.path} HTTP/1.1\r\nHost: 127.0.0.1:${options.port}\r\n` +
        `Content-Type: ${options.contentType}\r\n${framing}${extra}\r\n`,
    );
    const pump = () => {
      while (!done && sent < options.totalBytes) {
        const piece = options.chunked
          ? Buffer.concat([
              Buffer.from(`${chunk.length.toString(16)}\r\n`),
              chunk,
              Buffer.from('\r\n'),
            ])
          : chunk;
        sent += chunk.length;
        if (!socket.write(piece)) {
          socket.once('drain', pump);
          return;
        }
      }
      if (!done && options.chunked) socket.write('0\r\n\r\n');
    };
    socket.on('connect', pump);
  });
}

/** Bytes a process has read with read(2) and its kin so far (`rchar`), from /proc. */
async function bytesReadBy(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const io = await readFile(`/proc/${pid}/io`, 'utf8');
  const rchar = /^rchar:\s+(\d+)$/m.exec(io)?.[1];
  if (!rchar) throw new Error(`no rchar for process ${pid}`);
  return Number(rchar);
}

/** Resident memory of a process in bytes, from /proc. */
export async function residentBytes(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  if (!kib) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib) * 1024;
}
