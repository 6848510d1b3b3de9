/**
 * What a thrown value says, for a log line or `events_parked`: its message (with its name, for `withName`), or what
 * `String()` makes of anything else. Never a throw itself, whatever another team's handler threw (an object without
 * a prototype, a proxy, a getter that throws): the failure path must record the failure, not fail in turn.
 */
export function messageOf(error: unknown, { withName = false } = {}): string {
  try {
    if (!(error instanceof Error)) return String(error);
    return withName ? `${error.name}: ${error.message}` : String(error.message);
  } catch {
    return `a thrown value that cannot be printed (${tagOf(error)})`;
  }
}

function tagOf(error: unknown): string {
  try {
    return Object.prototype.toString.call(error);
  } catch {
    return typeof error;
  }
}
