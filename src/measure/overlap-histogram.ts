/** Bins `(from, to]`: 0 alone (`[0, 0]`), `bins` equal ones up to nominal, one above (tail stitching can exceed it). */
export function overlapHistogram(values: readonly number[], nominal: number, bins = 10) {
  const edges: number[] = [0];
  if (nominal > 0) for (let i = 1; i <= bins; i++) edges.push((nominal * i) / bins);
  const out = [{ label: "0", from: 0, to: 0, count: 0 }];
  for (let i = 1; i < edges.length; i++) {
    const from = edges[i - 1];
    const to = edges[i];
    out.push({ label: `${formatEdge(from)}-${formatEdge(to)}`, from, to, count: 0 });
  }
  const top = edges[edges.length - 1];
  out.push({ label: `>${formatEdge(top)}`, from: top, to: Infinity, count: 0 });
  for (const value of values) {
    if (value <= 0) out[0].count++;
    else if (value > top) out[out.length - 1].count++;
    else out[Math.min(edges.length - 1, Math.max(1, Math.ceil((value * (edges.length - 1)) / top)))].count++;
  }
  return out;
}

const formatEdge = (value: number): string => (Number.isInteger(value) ? String(value) : value.toFixed(1));
