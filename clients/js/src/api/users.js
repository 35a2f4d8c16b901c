import { segment, signedIn } from "../rest.js";

/** The signed-in user's profile, metadata and invitation preference; others' profiles; channel metadata. */
export class UserAPI {
  constructor(client) {
    this.client = client;
  }


  /** A user as others see them (presence included). */
  get(userId) {
    return this.client.rest().call("GET", `/v3/users/${segment(userId)}`);
  }

  /** Changes the user's `nickname` or `profile_url`. */
  updateProfile(change) {
    const [rest, path] = signedIn(this.client);
    return rest.call("PUT", path, { body: change });
  }

  myMetadata() {
    const [rest, path] = signedIn(this.client);
    return rest.call("GET", `${path}/metadata`);
  }

  /** Writes these keys (others stay); the written entries. */
  updateMyMetadata(values) {
    const [rest, path] = signedIn(this.client);
    return rest.call("PUT", `${path}/metadata`, { body: { metadata: values, upsert: true } });
  }

  async deleteMyMetadata(key) {
    const [rest, path] = signedIn(this.client);
    await rest.call("DELETE", `${path}/metadata/${segment(key)}`);
  }

  /** Whether invitations join the user at once (true) or wait for them to accept. */
  async channelInvitationPreference() {
    const [rest, path] = signedIn(this.client);
    return (await rest.call("GET", `${path}/channel_invitation_preference`)).auto_accept;
  }

  async setChannelInvitationPreference(autoAccept) {
    const [rest, path] = signedIn(this.client);
    await rest.call("PUT", `${path}/channel_invitation_preference`, { body: { auto_accept: autoAccept } });
  }

  channelMetadata(channelUrl, options) {
    return this.client.rest().call("GET", channelPath(channelUrl, options, "/metadata"));
  }

  /** Writes these keys of a channel's metadata (its operators); others stay. */
  updateChannelMetadata(channelUrl, values, options) {
    return this.client.rest().call("PUT", channelPath(channelUrl, options, "/metadata"), { body: { metadata: values, upsert: true } });
  }

  async deleteChannelMetadata(channelUrl, key, options) {
    await this.client.rest().call("DELETE", channelPath(channelUrl, options, `/metadata/${segment(key)}`));
  }
}

function channelPath(channelUrl, options = {}, rest) {
  const kind = options.channelType === "open" ? "open_channels" : "group_channels";
  return `/v3/${kind}/${segment(channelUrl)}${rest}`;
}
