/**
 * The terminal's one HTML document: a shell the script fills (search, item, markets, arbitrage
 * and inventory views, chosen by the URL hash). The footer carries the data terms, which ask
 * that the service be credited as the source (spec: usage terms).
 */
export const TERMS_TEXT =
  'Data: this pricing service. Credit it as the source where display is permitted; ' +
  'no resale or redistribution, no use for a competing service.';

export function terminalPage(script: string, style: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<title>Skin price terminal</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${style}">
<script type="module" src="${script}"></script>
</head>
<body>
<header class="top">
  <a class="brand" href="#/">Price terminal</a>
  <nav>
    <a href="#/" data-nav="search">Search</a>
    <a href="#/markets/cs2" data-nav="markets">Markets</a>
    <a href="#/arbitrage" data-nav="arbitrage">Arbitrage</a>
    <a href="#/inventory" data-nav="inventory">Inventory</a>
    <a href="/docs">API</a>
  </nav>
</header>
<main id="view" aria-live="polite"></main>
<footer class="terms">${TERMS_TEXT} Prices in USD; stale means fetched over 30 minutes ago.</footer>
</body>
</html>
`;
}
