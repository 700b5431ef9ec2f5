// Reads the text out of a chart's SVG as vega lays it out (a test helper): every visible text's box in the SVG's
// pixels, from the translate/rotate transforms of its groups and its own, its anchor, and vega's own width estimate
// without a canvas (0.8 × characters × font size; the layout itself was computed with it). Halo copies (a stroked
// duplicate under a label) and texts vega hid (opacity 0, removed by its label-overlap rule) are left out.
import { estimateTextWidth } from "../../src/charts/theme";

export interface TextBox {
  text: string;
  /** Class of the mark group holding it, e.g. "mark-text role-axis-label". */
  role: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

function parseTransform(value: string | undefined): Matrix {
  let m = IDENTITY;
  for (const [, op, args] of (value ?? "").matchAll(/(translate|rotate|scale)\(([^)]*)\)/g)) {
    const [a = 0, b = 0] = args
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    if (op === "translate") m = multiply(m, [1, 0, 0, 1, a, b]);
    else if (op === "scale") m = multiply(m, [a, 0, 0, args.includes(",") ? b : a, 0, 0]);
    else {
      const r = (a * Math.PI) / 180;
      m = multiply(m, [Math.cos(r), Math.sin(r), -Math.sin(r), Math.cos(r), 0, 0]);
    }
  }
  return m;
}

function attributes(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [, name, value] of source.matchAll(/([\w:-]+)="([^"]*)"/g)) out[name] = value;
  return out;
}

function decode(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, "&");
}

/** The SVG's declared size. */
export function svgSize(svg: string): { width: number; height: number } {
  const root = attributes(/<svg\b[^>]*>/.exec(svg)?.[0] ?? "");
  return { width: Number(root.width), height: Number(root.height) };
}

/** Boxes of every visible text in `svg`, one per line. */
export function textBoxes(svg: string): TextBox[] {
  return readLayout(svg).texts;
}

/** The plot areas: the rectangles of the chart's views (one per panel or facet cell), in the SVG's pixels. */
export function viewBoxes(svg: string): TextBox[] {
  return readLayout(svg).views;
}

/** A straight piece of a line mark, in the SVG's pixels. */
export interface Segment {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Every straight segment of the chart's line marks (vega writes a line as `M x,y L x,y …`). */
export function lineSegments(svg: string): Segment[] {
  return readLayout(svg).segments;
}

/** Whether `segment` passes through `box` grown by `pad` pixels on every side (Liang–Barsky clipping). */
export function segmentCrossesBox(segment: Segment, box: TextBox, pad = 0): boolean {
  const dx = segment.x1 - segment.x0;
  const dy = segment.y1 - segment.y0;
  let t0 = 0;
  let t1 = 1;
  const edges: [number, number][] = [
    [-dx, segment.x0 - (box.x0 - pad)],
    [dx, box.x1 + pad - segment.x0],
    [-dy, segment.y0 - (box.y0 - pad)],
    [dy, box.y1 + pad - segment.y0],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return false;
    } else if (p < 0) t0 = Math.max(t0, q / p);
    else t1 = Math.min(t1, q / p);
  }
  return t0 <= t1;
}

function readLayout(svg: string): { texts: TextBox[]; views: TextBox[]; segments: Segment[] } {
  const boxes: TextBox[] = [];
  const views: TextBox[] = [];
  const segments: Segment[] = [];
  const stack: { matrix: Matrix; role: string }[] = [{ matrix: IDENTITY, role: "" }];
  const tags = /<(\/?)(g|text|path)\b([^>]*?)(\/?)>/g;
  let match: RegExpExecArray | null;
  while ((match = tags.exec(svg))) {
    const [whole, closing, tag, rest, selfClosing] = match;
    if (tag === "path") {
      const attrs = attributes(rest);
      const top = stack[stack.length - 1];
      const size = /^M0,0h([\d.]+)v([\d.]+)/.exec(attrs.d ?? "");
      if (top.role.startsWith("mark-line") && /^M[\d.,eL-]+$/.test(attrs.d ?? "")) {
        const [a, b, c, d, e, f] = multiply(top.matrix, parseTransform(attrs.transform));
        const points = (attrs.d ?? "")
          .slice(1)
          .split("L")
          .map((p) => p.split(",").map(Number))
          .map(([x, y]) => [a * x + c * y + e, b * x + d * y + f]);
        for (let i = 1; i < points.length; i++)
          segments.push({ x0: points[i - 1][0], y0: points[i - 1][1], x1: points[i][0], y1: points[i][1] });
      }
      if (attrs.class === "background" && size && /role-(frame|scope)/.test(top.role) && Number(size[1]) > 0) {
        const [a, , , d, e, f] = top.matrix;
        views.push({
          text: "",
          role: top.role,
          x0: e,
          y0: f,
          x1: e + a * Number(size[1]),
          y1: f + d * Number(size[2]),
        });
      }
      continue;
    }
    if (tag === "g") {
      if (closing) stack.pop();
      else if (!selfClosing) {
        const attrs = attributes(rest);
        const top = stack[stack.length - 1];
        const role = attrs.class?.startsWith("mark-") ? attrs.class : top.role;
        stack.push({ matrix: multiply(top.matrix, parseTransform(attrs.transform)), role });
      }
      continue;
    }
    if (closing) continue;
    const end = svg.indexOf("</text>", match.index);
    const inner = svg.slice(match.index + whole.length, end);
    tags.lastIndex = end;
    const attrs = attributes(rest);
    if (attrs.opacity === "0" || attrs.stroke !== undefined) continue;
    const top = stack[stack.length - 1];
    const matrix = multiply(top.matrix, parseTransform(attrs.transform));
    const size = parseFloat(attrs["font-size"] ?? "11");
    const lines = inner.includes("<tspan")
      ? [...inner.matchAll(/<tspan([^>]*)>([^<]*)<\/tspan>/g)].map((t) => ({
          dy: parseFloat(attributes(t[1]).dy ?? "0"),
          text: decode(t[2]),
        }))
      : [{ dy: 0, text: decode(inner) }];
    let baseline = 0;
    for (const line of lines) {
      baseline += line.dy;
      if (line.text.trim() === "") continue;
      const w = estimateTextWidth(line.text, size);
      const anchor = attrs["text-anchor"] ?? "start";
      const left = anchor === "end" ? -w : anchor === "middle" ? -w / 2 : 0;
      // vega writes the alphabetic baseline: ascent about 0.79 em above it, descent 0.21 em below.
      const corners = [
        [left, baseline - 0.79 * size],
        [left + w, baseline - 0.79 * size],
        [left, baseline + 0.21 * size],
        [left + w, baseline + 0.21 * size],
      ].map(([x, y]) => [matrix[0] * x + matrix[2] * y + matrix[4], matrix[1] * x + matrix[3] * y + matrix[5]]);
      boxes.push({
        text: line.text,
        role: top.role,
        x0: Math.min(...corners.map((c) => c[0])),
        x1: Math.max(...corners.map((c) => c[0])),
        y0: Math.min(...corners.map((c) => c[1])),
        y1: Math.max(...corners.map((c) => c[1])),
      });
    }
  }
  return { texts: boxes, views, segments };
}

/**
 * The chart's own labels (texts of its marks, not of axes, legends or titles) that lie outside every plot area:
 * a rule label past the plot's edge. A layer named `beside_plot…` holds labels set beside the plot on purpose.
 */
export function markTextsOutsideViews(svg: string): TextBox[] {
  const { texts, views } = readLayout(svg);
  const inside = (t: TextBox, v: TextBox) =>
    t.x0 >= v.x0 - 1 && t.x1 <= v.x1 + 1 && t.y0 >= v.y0 - 1 && t.y1 <= v.y1 + 1;
  return texts.filter(
    (t) => t.role.includes("role-mark") && !t.role.includes("beside_plot") && !views.some((v) => inside(t, v)),
  );
}

/** Pairs of texts whose boxes overlap by more than `tolerance` pixels both ways. */
export function overlappingTexts(boxes: readonly TextBox[], tolerance = 1): [TextBox, TextBox][] {
  const pairs: [TextBox, TextBox][] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      const dx = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
      const dy = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
      if (dx > tolerance && dy > tolerance) pairs.push([a, b]);
    }
  return pairs;
}

/** Texts reaching outside the SVG's own width and height. */
export function textsOutside(boxes: readonly TextBox[], size: { width: number; height: number }): TextBox[] {
  return boxes.filter((b) => b.x0 < -1 || b.y0 < -1 || b.x1 > size.width + 1 || b.y1 > size.height + 1);
}

/** The SVG with line breaks between elements (never inside a text), so a golden's diff shows what moved. */
export function svgForDiff(svg: string): string {
  return svg.replace(/(<\/g>|\/>|<\/text>)(?=<)/g, "$1\n").replace(/>(?=<g[\s>])/g, ">\n") + "\n";
}
