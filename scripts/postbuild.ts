import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Writes .br and .gz siblings of every compressible client file, so the server never compresses them per request. */
const clientDir = path.resolve('build/client');
const compressible = /\.(js|mjs|css|html|svg|json|txt|xml|map)$/;

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

let count = 0;
for await (const file of files(clientDir)) {
  if (!compressible.test(file) || (await stat(file)).size < 1024) continue;
  const content = await readFile(file);
  await writeFile(
    `${file}.br`,
    brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  await writeFile(`${file}.gz`, gzipSync(content, { level: 9 }));
  count += 1;
}
console.log(`postbuild: precompressed ${count} files in build/client`);
