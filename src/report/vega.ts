// Compiles a vega-lite spec and renders it to a static SVG string (no DOM, no canvas, no network: the
// loader refuses every URL, so a spec pointing at remote data fails instead of fetching).
import * as vega from "vega";
import * as vl from "vega-lite";

const offlineLoader = vega.loader();
offlineLoader.load = async (uri: string) => {
  throw new Error(`charts must carry their data inline; refusing to load "${uri}"`);
};

/**
 * Renders `spec` to SVG and prefixes every id (and every `url(#id)` / `href="#id"` reference) with `prefix`,
 * so clip paths and gradients of several charts on one page do not collide.
 */
export async function renderVegaLiteSvg(spec: Record<string, unknown>, prefix: string): Promise<string> {
  const compiled = vl.compile(spec as unknown as vl.TopLevelSpec).spec;
  for (const data of compiled.data ?? []) {
    if ("url" in data && data.url)
      throw new Error(`charts must carry their data inline (data.values); refusing to load "${String(data.url)}"`);
  }
  const view = new vega.View(vega.parse(compiled), { renderer: "none", loader: offlineLoader, logLevel: vega.Warn });
  try {
    const svg = await view.toSVG();
    return prefixSvgIds(svg, prefix);
  } finally {
    view.finalize();
  }
}

/**
 * Renames every id to `<prefix><n>` in order of first appearance and rewrites `url(#id)` / `href="#id"` to match.
 * Vega numbers clip paths with a process-wide counter; renumbering makes a chart's SVG independent of what was
 * rendered before it (byte-identical output), and the prefix keeps charts on one page apart.
 */
export function prefixSvgIds(svg: string, prefix: string): string {
  const renamed = new Map<string, string>();
  for (const match of svg.matchAll(/\bid="([^"]+)"/g)) {
    if (!renamed.has(match[1])) renamed.set(match[1], `${prefix}${renamed.size + 1}`);
  }
  const rename = (id: string) => renamed.get(id) ?? `${prefix}missing-${id}`;
  return svg
    .replace(/\bid="([^"]+)"/g, (_, id: string) => `id="${rename(id)}"`)
    .replace(/url\(#([^)]+)\)/g, (_, id: string) => `url(#${rename(id)})`)
    .replace(/\b(xlink:href|href)="([^"]*)"/g, (_, attr: string, target: string) => {
      if (target.startsWith("#")) return `${attr}="#${rename(target.slice(1))}"`;
      // Links and images from the spec (href channel, image marks) would be requests leaving the page.
      if (/^data:image\/(png|jpeg|gif|webp);/i.test(target)) return `${attr}="${target}"`;
      return `${attr}="#"`;
    });
}
