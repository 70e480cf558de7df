/**
 * The results panel's HTML: CSP `default-src 'none'`, scripts only with the nonce, styles and
 * images only from the panel's own resource root. Pure (no `vscode`), so the browser tests load
 * exactly this page.
 */

export interface PanelHtmlOptions {
  /** `webview.cspSource`: the origin the panel's resources are served from. */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  title: string;
  /** Extra script run before the bundle (the browser tests' `acquireVsCodeApi` stub), nonce'd too. */
  preamble?: string;
}

export function panelHtml(o: PanelHtmlOptions): string {
  // data: images: the PNG export rasterises the chart's SVG through an <img>.
  const csp = [
    `default-src 'none'`,
    `img-src ${o.cspSource} data:`,
    `style-src ${o.cspSource}`,
    `font-src ${o.cspSource}`,
    `script-src 'nonce-${o.nonce}'`,
  ].join('; ');
  const preamble = o.preamble ? `<script nonce="${o.nonce}">${o.preamble}</script>\n` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${o.styleUri}">
<title>${escapeHtml(o.title)}</title>
</head>
<body>
<div id="app" aria-live="polite"></div>
${preamble}<script nonce="${o.nonce}" src="${o.scriptUri}"></script>
</body>
</html>
`;
}

/** A fresh, unguessable nonce per page load. */
export function makeNonce(): string {
  // Web Crypto: the same in the desktop extension host and in VS Code for the Web.
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
