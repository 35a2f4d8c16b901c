import { ParleyError } from "./errors.js";

/**
 * The signed-in user's session token, renewed through the app's provider: once for every caller
 * that found it refused at the same time (the socket and several requests ask together).
 */
export class SessionCredentials {
  constructor(userId, token, provider) {
    this.userId = userId;
    this.token = token;
    this.provider = provider;
    this.renewal = null;
  }

  /** A token newer than `refused`: the current one if another caller renewed it already. */
  async renew(refused) {
    if (this.token !== refused) return this.token;
    if (!this.provider) throw new ParleyError(0, 401, "The session token was refused and there is no token provider.");
    if (!this.renewal) {
      this.renewal = (async () => {
        try {
          const fresh = await this.provider(this.userId);
          if (typeof fresh !== "string" || fresh === "") throw new ParleyError(0, 401, "The token provider gave no token.");
          this.token = fresh;
          return fresh;
        } finally {
          this.renewal = null;
        }
      })();
    }
    return this.renewal;
  }
}
