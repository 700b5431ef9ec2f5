// Labels placed by the builders, not vega (which never moves a text mark, so two labels at nearby x overprint): the
// scales' domains are set explicitly, so every label's box is known here in pixels.
import { INK, estimateTextWidth } from "./theme";

/** A text's box in the plot's pixels (y down from the top edge). */
export interface Box {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

export interface Placement {
  x: number;
  y: number;
  align: "left" | "right";
  box: Box;
}

export const LABEL_FONT_SIZE = 11;
/** A line of 11 px text, with room. */
const LANE = 15;
const GAP = 5;

const intersects = (a: Box, b: Box): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** Linear position of `value` on a domain drawn over `size` pixels (`flip` for y, which grows upward). */
export function pixelOf(value: number, domain: readonly [number, number], size: number, flip = false): number {
  const t = domain[1] === domain[0] ? 0 : (value - domain[0]) / (domain[1] - domain[0]);
  return flip ? size * (1 - t) : size * t;
}

/** Rule labels at pixel x `at`: each in the first lane from the top it fits in, right of its rule or left; or null. */
export function placeRuleLabels(labels: readonly { at: number; text: string }[], width: number, height: number) {
  const boxes: Box[] = [];
  const lanes = Math.max(1, Math.floor((height - 4) / LANE));
  return labels.map(({ at, text }) => {
    const w = estimateTextWidth(text, LABEL_FONT_SIZE);
    for (let lane = 0; lane < lanes; lane++) {
      const y = 4 + lane * LANE;
      const sides: Placement[] = [
        { x: at + GAP, y, align: "left", box: { x0: at + GAP, x1: at + GAP + w, y0: y, y1: y + LANE - 2 } },
        { x: at - GAP, y, align: "right", box: { x0: at - GAP - w, x1: at - GAP, y0: y, y1: y + LANE - 2 } },
      ];
      const fits = sides.find((p) => p.box.x0 >= 0 && p.box.x1 <= width && !boxes.some((b) => intersects(b, p.box)));
      if (fits) {
        boxes.push(fits.box);
        return fits;
      }
    }
    return null;
  });
}

/** Vertical centres near `wanted`, at least `step` apart, inside [0, height], in the same order. */
export function spreadVertically(wanted: readonly number[], height: number, step = LANE - 2): number[] {
  const order = wanted.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y || a.i - b.i);
  const placed = order.map((o) => o.y);
  for (let j = 1; j < placed.length; j++) placed[j] = Math.max(placed[j], placed[j - 1] + step);
  const overflow = placed.length > 0 ? placed[placed.length - 1] - (height - step / 2) : 0;
  if (overflow > 0) {
    placed[placed.length - 1] -= overflow;
    for (let j = placed.length - 2; j >= 0; j--) placed[j] = Math.min(placed[j], placed[j + 1] - step);
  }
  const out = new Array<number>(wanted.length);
  order.forEach((o, j) => (out[o.i] = Math.max(step / 2, placed[j])));
  return out;
}

/** A text layer drawn twice, first as an outline (tests for overprinting skip stroked texts), to read over marks. */
export function withHalo(layer: Record<string, unknown>): Record<string, unknown>[] {
  const mark = layer.mark as Record<string, unknown>;
  const halo = { ...mark, color: INK.halo, stroke: INK.halo, strokeWidth: 3, strokeJoin: "round", tooltip: false };
  return [{ ...layer, mark: halo }, layer];
}
