/** Renames the count axis of an `overlapHistogram` spec (it says "seams"; a paragraph histogram counts paragraphs). */
export function withCountTitle(spec: Record<string, unknown>, title: string): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(spec)) as { spec?: { layer?: { encoding?: { y?: { title?: string } } }[] } };
  const y = copy.spec?.layer?.[0]?.encoding?.y;
  if (y) y.title = title;
  return copy as Record<string, unknown>;
}
