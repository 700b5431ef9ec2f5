// What `queries generate` says while it waits, so a server that never answers is seen within seconds.

export interface WaitingStatus {
  settled: number;
  total: number;
  answered: number;
  inFlight: number;
  longestMs: number; // the oldest request in flight's wait, against the limit per request
  requestLimitMs: number;
  deadlineLeftMs: number;
}

/** A wait as people say it: "0.3 s", "45 s", "12 min". */
export function waitText(ms: number): string {
  if (ms >= 120_000) return `${Math.round(ms / 60_000)} min`;
  return ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** One line for stderr: "waiting on the chat endpoint: 3 of 100 requests settled (2 answered), 4 in flight, ...". */
export function waitingLine(s: WaitingStatus): string {
  return (
    `waiting on the chat endpoint: ${s.settled} of ${s.total} requests settled (${s.answered} answered), ` +
    `${s.inFlight} in flight, the oldest for ${waitText(s.longestMs)} of its ${waitText(s.requestLimitMs)} ` +
    `(--llm-timeout); ${waitText(s.deadlineLeftMs)} left before --deadline`
  );
}

/** Calls `onWaiting` every `everyMs` while `status()` has requests in flight; returns the stop function. */
export function startHeartbeat(
  everyMs: number,
  status: () => WaitingStatus,
  onWaiting: ((status: WaitingStatus) => void) | undefined,
): () => void {
  if (!onWaiting) return () => {};
  const timer = setInterval(() => {
    const now = status();
    if (now.inFlight > 0) onWaiting(now);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
