/**
 * What went wrong: the server's answer (API.md §1.5: an HTTP status and Parley's error code), or a
 * failure on the way (no answer: `status` and `code` 0).
 */
export class ParleyError extends Error {
  constructor(code, status, message) {
    super(message);
    this.name = "ParleyError";
    /** Parley's error code (400201: not found, …); 0 when the server did not answer. */
    this.code = code;
    /** The HTTP status; 0 when there was no answer. */
    this.status = status;
  }

  /** A session token the server no longer takes (expired, revoked): the token provider is asked. */
  get isInvalidSessionToken() {
    return this.status === 401;
  }

  /** Whether trying again may succeed: no answer, or the server's trouble (not a refusal). */
  get isRetryable() {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }

  static transport(error) {
    if (error instanceof ParleyError) return error;
    return new ParleyError(0, 0, String(error?.message ?? error));
  }

  static notConnected() {
    return new ParleyError(0, 0, "Not connected: call connect(userId, sessionToken) first.");
  }
}
