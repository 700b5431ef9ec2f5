/** Kendall's tau-b (Kendall 1945) of paired score lists; NaN when either is constant. O(n²): a few dozen configs. */
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
  // pairs tied in both count in neither untied term
  const untiedX = concordant + discordant + tiesY;
  const untiedY = concordant + discordant + tiesX;
  const denominator = Math.sqrt(untiedX * untiedY);
  return denominator === 0 ? NaN : (concordant - discordant) / denominator;
}
