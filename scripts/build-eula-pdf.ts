import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eula, eulaPdfPath } from '../app/content/legal/eula.ts';
import { siteConfig } from '../shared/site-config.ts';
import { renderLegalPdf } from './pdf/legal-pdf.ts';

/**
 * Build step: writes the EULA as a PDF into the client build, from the same content source as the
 * /eula/cli page. Usage: node scripts/build-eula-pdf.ts [client dir, default build/client]
 */
const clientDir = path.resolve(process.argv[2] ?? 'build/client');
const target = path.join(clientDir, eulaPdfPath);
const bytes = await renderLegalPdf(eula, siteConfig.company.name);
await mkdir(path.dirname(target), { recursive: true });
await writeFile(target, bytes);
console.log(
  `build-eula-pdf: wrote ${path.relative(process.cwd(), target)} (${bytes.length} bytes)`,
);
