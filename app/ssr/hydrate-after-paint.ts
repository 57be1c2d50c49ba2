import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { earlyClickScript } from './replay-early-clicks.ts';

/**
 * React Router's module script: the route modules' imports and the call that hydrates; it carries
 * the render's mark (`nonce`) when the server passed one (decision 120).
 */
const hydrationScript = /<script((?: nonce="[^"]*")?) type="module" async="">/;
/** The same script, inert until the loader below starts it, its mark kept. */
const heldScript = '<script$1 type="text/x-hydrate-after-paint" id="hydrate">';
const modulePreload = /<link rel="modulepreload"[^>]*>/g;
/** The head's start, with the charset that must come first when there is one. */
const headStart = /<head>(?:<meta charSet="utf-8"\/>)?/;

/**
 * Starts the held module once the browser has painted the server-rendered page (its first
 * contentful paint), or after 3 s where paint timing is missing or the tab is hidden. A module
 * script built from the held text runs with the same CSP hash as the text itself (decision 110).
 */
export const hydrationLoader =
  '(function(){var started=false;function start(){if(started)return;started=true;' +
  'var held=document.getElementById("hydrate");if(!held)return;' +
  'var script=document.createElement("script");script.type="module";' +
  'script.textContent=held.textContent;document.body.appendChild(script)}' +
  'try{new PerformanceObserver(function(list){' +
  'if(list.getEntriesByName("first-contentful-paint").length)start()})' +
  '.observe({type:"paint",buffered:true})}catch(e){}' +
  'setTimeout(start,3000)})();';

/**
 * The document with hydration held until first paint: see {@link hydrateAfterFirstPaint}. The
 * loader and the script that keeps early clicks (first in the head, before anything can be
 * clicked) carry `mark` like every other script of the render, so the server hashes them.
 */
export function holdHydration(html: string, mark?: string): string {
  if (!hydrationScript.test(html)) return html;
  const marked = mark ? ` nonce="${mark}"` : '';
  const held = html
    .replace(modulePreload, '')
    .replace(hydrationScript, heldScript)
    .replace(headStart, (start) => `${start}<script${marked}>${earlyClickScript}</script>`);
  const bodyEnd = held.lastIndexOf('</body>');
  const loader = `<script${marked}>${hydrationLoader}</script>`;
  return bodyEnd === -1 ? held + loader : held.slice(0, bodyEnd) + loader + held.slice(bodyEnd);
}

/**
 * Holds React Router's hydration until the page has painted (decision 110): the server-rendered
 * HTML is the page, and on a slow phone the framework's JavaScript (download, parse, hydrate)
 * otherwise competes with the first paint. The module preloads go, the module script becomes an
 * inert block, and a small inline loader starts it after the first contentful paint. The whole
 * document passes through (the server waits for it anyway, to hash and cache it).
 */
export function hydrateAfterFirstPaint(mark?: string): Transform {
  const decoder = new StringDecoder('utf8');
  let html = '';
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      html += typeof chunk === 'string' ? chunk : decoder.write(chunk);
      callback();
    },
    flush(callback) {
      html += decoder.end();
      callback(null, holdHydration(html, mark));
    },
  });
}
