import { ParleyError } from "../errors.js";
import { page, segment, toPage } from "../rest.js";

/** Open channels (API.md §8), as the signed-in user. */
export class OpenChannelAPI {
  constructor(client) {
    this.client = client;
  }

  path(channelUrl, rest = "") {
    return `/v3/open_channels/${segment(channelUrl)}${rest}`;
  }

  /** `query`: `name_contains`, `url_contains`, `custom_types`, `limit`, `token`. */
  async list(query = {}) {
    return toPage(await this.client.rest().call("GET", "/v3/open_channels", { query: { limit: 20, ...query } }), "channels");
  }

  get(channelUrl) {
    return this.client.rest().call("GET", this.path(channelUrl));
  }

  /** `params`: `{ channel_url, name, cover_url, custom_type, data, is_ephemeral, operator_ids }`. */
  create(params) {
    return this.client.rest().call("POST", "/v3/open_channels", { body: params });
  }

  update(channelUrl, params) {
    return this.client.rest().call("PUT", this.path(channelUrl), { body: params });
  }

  async delete(channelUrl) {
    await this.client.rest().call("DELETE", this.path(channelUrl));
  }

  setFrozen(channelUrl, frozen) {
    return this.client.rest().call("PUT", this.path(channelUrl, "/freeze"), { body: { freeze: frozen } });
  }

  /**
   * Enters the channel for as long as the event stream is open (on any of the user's devices);
   * resolves when the server confirms (`participant_entered`), rejects on a refusal (full,
   * banned). The SDK enters it again after a reconnection, until `exit` or `disconnect`.
   */
  async enter(channelUrl, { timeout = 10 } = {}) {
    await this.confirmed(channelUrl, "enter", "participant_entered", timeout);
    this.client.connection().noteEntered(channelUrl, true);
  }

  async exit(channelUrl, { timeout = 10 } = {}) {
    this.client.connection().noteEntered(channelUrl, false);
    await this.confirmed(channelUrl, "exit", "participant_exited", timeout);
  }

  async participants(channelUrl, options) {
    return toPage(await this.client.rest().call("GET", this.path(channelUrl, "/participants"), { query: page(options) }), "participants");
  }

  /** Sends `frame` and waits for the event that confirms it, or the `error` frame that refuses it. */
  confirmed(channelUrl, frame, event, timeout) {
    const connection = this.client.connection();
    const me = this.client.currentUserId;
    return new Promise((resolve, reject) => {
      const finish = (error) => {
        clearTimeout(timer);
        stop();
        if (error) reject(error);
        else resolve();
      };
      const stop = this.client.onEvent((received) => {
        if (received.type === event && received.channel_url === channelUrl && received.data?.users?.some((u) => u.user_id === me)) finish();
        else if (received.type === "error" && received.code) finish(new ParleyError(received.code, 0, received.message ?? "refused"));
      });
      const timer = setTimeout(() => finish(new ParleyError(0, 0, `No answer to ${frame} within ${timeout} s.`)), timeout * 1000);
      try {
        connection.send({ type: frame, channel_url: channelUrl });
      } catch (error) {
        finish(error);
      }
    });
  }
}
