import { page, segment, toPage } from "../rest.js";

/**
 * Group channels (API.md §3, §6) as the signed-in user. Parameters and answers are the API's own
 * JSON (snake_case, as in openapi.yaml): `{ user_ids, name, is_distinct, is_public, is_super,
 * is_ephemeral, operator_ids, custom_type, access_code, … }`.
 */
export class GroupChannelAPI {
  constructor(client) {
    this.client = client;
  }

  path(channelUrl, rest = "") {
    return `/v3/group_channels/${segment(channelUrl)}${rest}`;
  }

  /** Creates a channel; the signed-in user is a member (and, unless `operator_ids` says, no operator). */
  create(params) {
    return this.client.rest().call("POST", "/v3/group_channels", { body: params });
  }

  /** The channel with the user's own fields (`member_state`, `unread_message_count`, …) and its members. */
  get(channelUrl) {
    return this.client.rest().call("GET", this.path(channelUrl), { query: { show_member: true } });
  }

  update(channelUrl, params) {
    return this.client.rest().call("PUT", this.path(channelUrl), { body: params });
  }

  async delete(channelUrl) {
    await this.client.rest().call("DELETE", this.path(channelUrl));
  }

  invite(channelUrl, userIds) {
    return this.client.rest().call("POST", this.path(channelUrl, "/invite"), { body: { user_ids: userIds } });
  }

  acceptInvitation(channelUrl, accessCode) {
    return this.client.rest().call("PUT", this.path(channelUrl, "/accept"), { body: accessCode ? { access_code: accessCode } : {} });
  }

  async declineInvitation(channelUrl) {
    await this.client.rest().call("PUT", this.path(channelUrl, "/decline"), { body: {} });
  }

  /** Joins a public channel (with its access code when it has one). */
  async join(channelUrl, accessCode) {
    await this.client.rest().call("PUT", this.path(channelUrl, "/join"), { body: accessCode ? { access_code: accessCode } : {} });
  }

  async leave(channelUrl) {
    await this.client.rest().call("PUT", this.path(channelUrl, "/leave"), { body: {} });
  }

  /** Hides the channel from the user's list (`allowAutoUnhide: false` archives it). */
  async hide(channelUrl, { hidePreviousMessages = false, allowAutoUnhide = true } = {}) {
    await this.client.rest().call("PUT", this.path(channelUrl, "/hide"), {
      body: { hide_previous_messages: hidePreviousMessages, allow_auto_unhide: allowAutoUnhide },
    });
  }

  async unhide(channelUrl) {
    await this.client.rest().call("DELETE", this.path(channelUrl, "/hide"));
  }

  /** Freezes the channel (only operators speak) or thaws it; the channel after. */
  setFrozen(channelUrl, frozen) {
    return this.client.rest().call("PUT", this.path(channelUrl, "/freeze"), { body: { freeze: frozen } });
  }

  /** Clears the channel's history for the user alone. */
  async resetHistory(channelUrl) {
    await this.client.rest().call("PUT", this.path(channelUrl, "/reset_user_history"), { body: {} });
  }

  async members(channelUrl, options) {
    return toPage(await this.client.rest().call("GET", this.path(channelUrl, "/members"), { query: page(options) }), "members");
  }

  async operators(channelUrl, options) {
    return toPage(await this.client.rest().call("GET", this.path(channelUrl, "/operators"), { query: page(options) }), "operators");
  }

  async addOperators(channelUrl, userIds) {
    await this.client.rest().call("POST", this.path(channelUrl, "/operators"), { body: { operator_ids: userIds } });
  }

  async removeOperators(channelUrl, userIds) {
    await this.client.rest().call("DELETE", this.path(channelUrl, "/operators"), { query: { operator_ids: userIds } });
  }

  /**
   * The user's channels: `query` takes the API's filters and orders (`order`, `custom_types`,
   * `name_contains`, `members_exactly_in`, `hidden_mode`, `member_state_filter`, `show_empty`,
   * `unread_filter`, `super_mode`, `public_mode`, `metadata_key`, …) and `limit`, `token`.
   */
  async myChannels(query = {}) {
    const rest = this.client.rest();
    const path = `/v3/users/${segment(rest.credentials.userId)}/my_group_channels`;
    return toPage(await rest.call("GET", path, { query: { limit: 20, ...query } }), "channels");
  }

  /** The user's channels changed since `changeTs` (ms) or a previous page's `token` (EVENTS.md §11). */
  changelogs({ changeTs, token } = {}) {
    const rest = this.client.rest();
    const path = `/v3/users/${segment(rest.credentials.userId)}/my_group_channels/changelogs`;
    return rest.call("GET", path, { query: token ? { token } : { change_ts: changeTs } });
  }
}
