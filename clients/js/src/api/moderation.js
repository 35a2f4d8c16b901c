import { page, segment, toPage, signedIn } from "../rest.js";

const kindOf = (options = {}) => (options.channelType === "open" ? "open_channels" : "group_channels");

/** Blocks, reports, bans and mutes (API.md §7), as the signed-in user. */
export class ModerationAPI {
  constructor(client) {
    this.client = client;
  }


  async block(userId) {
    const [rest, path] = signedIn(this.client);
    await rest.call("POST", `${path}/block`, { body: { target_id: userId } });
  }

  async unblock(userId) {
    const [rest, path] = signedIn(this.client);
    await rest.call("DELETE", `${path}/block/${segment(userId)}`);
  }

  async blockedUsers(options) {
    const [rest, path] = signedIn(this.client);
    return toPage(await rest.call("GET", `${path}/block`, { query: page(options) }), "users");
  }

  /** `category`: `suspicious`, `harassing`, `inappropriate` or `spam`. */
  reportUser(userId, category, description) {
    return this.report(`/v3/report/users/${segment(userId)}`, category, description);
  }

  reportChannel(channelUrl, category, description, options) {
    return this.report(`/v3/report/${kindOf(options)}/${segment(channelUrl)}`, category, description);
  }

  reportMessage(channelUrl, messageId, category, description, options) {
    return this.report(`/v3/report/${kindOf(options)}/${segment(channelUrl)}/messages/${messageId}`, category, description);
  }

  async report(path, category, description) {
    const body = { report_category: category };
    if (description !== undefined) body.report_description = description;
    await this.client.rest().call("POST", path, { body });
  }

  /** A channel's banned users (its operators): `{ user, start_at, end_at, description }`. */
  async bannedUsers(channelUrl, options) {
    return toPage(await this.client.rest().call("GET", this.path(channelUrl, options, "/ban"), { query: page(options) }), "banned_list");
  }

  async mutedUsers(channelUrl, options) {
    return toPage(await this.client.rest().call("GET", this.path(channelUrl, options, "/mute"), { query: page(options) }), "muted_list");
  }

  /** Bans `userId` for `seconds` (-1: for good), as one of the channel's operators. */
  async ban(channelUrl, userId, { seconds = -1, description, channelType } = {}) {
    await this.client.rest().call("POST", this.path(channelUrl, { channelType }, "/ban"), { body: { user_id: userId, seconds, description } });
  }

  async mute(channelUrl, userId, { seconds = -1, description, channelType } = {}) {
    await this.client.rest().call("POST", this.path(channelUrl, { channelType }, "/mute"), { body: { user_id: userId, seconds, description } });
  }

  async unban(channelUrl, userId, options) {
    await this.client.rest().call("DELETE", this.path(channelUrl, options, `/ban/${segment(userId)}`));
  }

  async unmute(channelUrl, userId, options) {
    await this.client.rest().call("DELETE", this.path(channelUrl, options, `/mute/${segment(userId)}`));
  }

  path(channelUrl, options, rest) {
    return `/v3/${kindOf(options)}/${segment(channelUrl)}${rest}`;
  }
}
