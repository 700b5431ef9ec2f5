// A vega-lite spec rendered to a static SVG string (no DOM, no network: the loader refuses every URL). vega loads on
// the first chart (0.15 s), not before the report's first kernels start.
import type * as Vega from "vega";
import type * as VegaLite from "vega-lite";

let loaded: Promise<{ vega: typeof Vega; vl: typeof VegaLite; offlineLoader: Vega.Loader }> | undefined;
const load = async () => {
  const [vega, vl] = await Promise.all([import("vega"), import("vega-lite")]);
  const offlineLoader = vega.loader();
  offlineLoader.load = async (uri: string) => {
    throw new Error(`charts must carry their data inline; refusing to load "${uri}"`);
  };
  return { vega, vl, offlineLoader };
};

/** Renders `spec` to SVG, its ids prefixed with `prefix` (charts on one page do not collide). */
export async function renderVegaLiteSvg(spec: Record<string, unknown>, prefix: string): Promise<string> {
  const { vega, vl, offlineLoader } = await (loaded ??= load());
  const compiled = vl.compile(spec as unknown as VegaLite.TopLevelSpec).spec;
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
 * Renames every id to `<prefix><n>` in order of first appearance, references too: vega numbers clip paths with a
 * process-wide counter, so renumbering makes a chart's SVG independent of what was rendered before it.
 */
function prefixSvgIds(svg: string, prefix: string): string {
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
