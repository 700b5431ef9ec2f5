/** Peak resident memory of this process so far, in MB (`maxRSS` is in kilobytes), for run summaries. */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/** `peak RSS 123 MB`: the phrase run summaries end with. */
export function peakRssText(): string {
  return `peak RSS ${Math.round(peakRssMb())} MB`;
}
