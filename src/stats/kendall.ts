/**
 * Kendall's tau-b between two paired lists of scores: the rank agreement of two orderings of the same items,
 * from -1 (reversed) through 0 (unrelated) to 1 (same order), with ties handled as in Kendall (1945):
 * tau_b = (concordant - discordant) / sqrt((n0 - ties_x) * (n0 - ties_y)), n0 = n(n-1)/2.
 * Undefined (NaN) when either list is constant. O(n²), meant for a few dozen configs.
 */
export function kendallTauB(x: readonly number[], y: readonly number[]): number {
  if (x.length !== y.length) throw new Error(`kendallTauB: ${x.length} scores against ${y.length}.`);
  let concordant = 0;
  let discordant = 0;
  let tiesX = 0;
  let tiesY = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const dx = Math.sign(x[i] - x[j]);
      const dy = Math.sign(y[i] - y[j]);
      if (dx === 0 && dy === 0) continue;
      if (dx === 0) tiesX++;
      else if (dy === 0) tiesY++;
      else if (dx === dy) concordant++;
      else discordant++;
    }
  }
  // pairs tied in both count against neither denominator term's "untied" pairs below
  const untiedX = concordant + discordant + tiesY;
  const untiedY = concordant + discordant + tiesX;
  const denominator = Math.sqrt(untiedX * untiedY);
  return denominator === 0 ? NaN : (concordant - discordant) / denominator;
}
