import { segment, signedIn } from "../rest.js";

/** Read receipts, unread counts and typing (API.md §4.5, §6), as the signed-in user. */
export class ReceiptAPI {
  constructor(client) {
    this.client = client;
  }


  /** Marks everything in the channel read: the others get `read`, the user's counts drop. */
  async markAsRead(channelUrl) {
    await this.client.rest().call("PUT", `/v3/group_channels/${segment(channelUrl)}/messages/mark_as_read`, { body: {} });
  }

  async markAsDelivered(channelUrl) {
    await this.client.rest().call("PUT", `/v3/group_channels/${segment(channelUrl)}/messages/mark_as_delivered`, { body: {} });
  }

  /** Marks every joined channel read (or those given). */
  async markAllAsRead(channelUrls) {
    const [rest, path] = signedIn(this.client);
    await rest.call("PUT", `${path}/mark_as_read_all`, { body: channelUrls ? { channel_urls: channelUrls } : {} });
  }

  /** The user's unread messages over all their joined channels. */
  async totalUnreadMessageCount() {
    const [rest, path] = signedIn(this.client);
    return (await rest.call("GET", `${path}/unread_message_count`)).unread_count;
  }

  /** How many of the user's joined channels have unread messages. */
  async unreadChannelCount() {
    const [rest, path] = signedIn(this.client);
    return (await rest.call("GET", `${path}/unread_channel_count`)).unread_count;
  }

  /** The user's unread messages in one channel. */
  async unreadMessageCount(channelUrl) {
    const rest = this.client.rest();
    const body = await rest.call("GET", `/v3/group_channels/${segment(channelUrl)}/messages/unread_count`);
    return body.unread?.[rest.credentials.userId] ?? 0;
  }

  /** Tells the channel the user is typing (again every few seconds; it ends by itself 10 s after the last, or on a send). */
  startTyping(channelUrl) {
    this.client.connection().send({ type: "typing_start", channel_url: channelUrl });
  }

  endTyping(channelUrl) {
    this.client.connection().send({ type: "typing_end", channel_url: channelUrl });
  }
}
