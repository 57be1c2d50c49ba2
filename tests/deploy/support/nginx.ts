import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const template = path.resolve('deploy/nginx/templates/orgsmith.conf.template');

/**
 * Renders the repository's nginx template as the nginx image does (envsubst of the variables we
 * define, nginx's own `$variables` untouched).
 */
export async function renderTemplate(values: Record<string, string>): Promise<string> {
  const text = await readFile(template, 'utf8');
  return text.replace(/\$\{([A-Z_]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

export interface Nginx {
  url: string;
  process: ChildProcess;
  /** The access log as written so far. */
  accessLog(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Debian's nginx with a main config like the image's (`http { include conf.d/*.conf; }`) around
 * our rendered template, everything under `dir`.
 */
export async function startNginx(options: {
  dir: string;
  port: number;
  appServers: string[];
  assetsRoot: string;
}): Promise<Nginx> {
  const { dir, port } = options;
  await mkdir(path.join(dir, 'conf.d'), { recursive: true });
  await mkdir(path.join(dir, 'cache'), { recursive: true });
  const site = await renderTemplate({
    NGINX_PORT: `127.0.0.1:${port}`,
    APP_SERVERS: options.appServers
      .map((server) => `server ${server} max_fails=1 fail_timeout=5s;`)
      .join(' '),
    ASSETS_ROOT: options.assetsRoot,
    CACHE_DIR: path.join(dir, 'cache'),
    ACCESS_LOG: path.join(dir, 'access.log'),
  });
  await writeFile(path.join(dir, 'conf.d', 'orgsmith.conf'), site);
  const main = [
    'daemon off;',
    'worker_processes 1;',
    // Root runs the tests; its workers must read the temporary directories.
    'user root;',
    `pid ${path.join(dir, 'nginx.pid')};`,
    `error_log ${path.join(dir, 'error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    '  include /etc/nginx/mime.types;',
    '  default_type application/octet-stream;',
    '  access_log off;',
    '  sendfile on;',
    `  client_body_temp_path ${path.join(dir, 'body')};`,
    `  proxy_temp_path ${path.join(dir, 'proxy')};`,
    `  fastcgi_temp_path ${path.join(dir, 'fastcgi')};`,
    `  uwsgi_temp_path ${path.join(dir, 'uwsgi')};`,
    `  scgi_temp_path ${path.join(dir, 'scgi')};`,
    `  include ${path.join(dir, 'conf.d')}/*.conf;`,
    '}',
  ].join('\n');
  const conf = path.join(dir, 'nginx.conf');
  await writeFile(conf, main);
  const child = spawn('/usr/sbin/nginx', ['-c', conf, '-e', path.join(dir, 'error.log')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${output.join('')}`);
    try {
      await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (i > 100) throw new Error(`nginx did not answer: ${output.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const exited = once(child, 'exit');
  return {
    url,
    process: child,
    accessLog: () => readFile(path.join(dir, 'access.log'), 'utf8').catch(() => ''),
    async stop() {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
}
