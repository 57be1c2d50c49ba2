/** @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';
import { raw } from 'hono/html';
import { siteConfig } from '#shared/site-config.ts';

export const product = siteConfig.productName;

/**
 * Every local page (decision 062): the head (bearer-link URLs: no index; the routes send no
 * referrer) and, with a subtitle, the TEST MODE frame around the body. `refreshTo` makes the page
 * reload there at once (`0; url=`: the space the HTML spec asks for).
 */
export function PageLayout(props: {
  title: string;
  subtitle?: string | undefined;
  refreshTo?: string | undefined;
  children: Child;
}) {
  return (
    <>
      {raw('<!doctype html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="robots" content="noindex, nofollow" />
          <title>{`${props.title} - ${product}`}</title>
          <link rel="stylesheet" href="/billing/local/styles.css" />
          <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
          {props.refreshTo ? (
            <meta http-equiv="refresh" content={`0; url=${props.refreshTo}`} />
          ) : null}
        </head>
        <body>
          {props.subtitle === undefined ? null : <TestModeFrame subtitle={props.subtitle} />}
          <main id="main">{props.children}</main>
        </body>
      </html>
    </>
  );
}

function TestModeFrame(props: { subtitle: string }) {
  return (
    <header>
      <p class="test-mode" role="note">
        <strong>TEST MODE</strong> — no real payment is taken. This page stands in for the card
        payment provider.
      </p>
      <div class="brand">
        <div class="inner">
          <span class="name">{product}</span>
          <span class="sub">{props.subtitle}</span>
        </div>
      </div>
    </header>
  );
}

export function periodWord(period: 'monthly' | 'yearly'): string {
  return period === 'monthly' ? 'month' : 'year';
}
