/** `peak RSS 123 MB` (`maxRSS` is in kilobytes): the phrase run summaries end with. */
export const peakRssText = (): string => `peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`;
