import { page, segment, toPage } from "../rest.js";

/** Threads, pins, scheduled messages, polls, search and metacounters (API.md §13). */
export class ConversationAPI {
  constructor(client) {
    this.client = client;
  }

  channelPath(channelUrl, rest, options = {}) {
    const kind = options.channelType === "open" ? "open_channels" : "group_channels";
    return `/v3/${kind}/${segment(channelUrl)}${rest}`;
  }

  call(method, path, request) {
    return this.client.rest().call(method, path, request);
  }

  // Threads (§13.1): a reply is a message sent with `parent_message_id`.

  /** `{ parent_message, messages }`: a thread's replies around a point (history's parameters). */
  thread(channelUrl, parentMessageId, query, options) {
    return this.call("GET", this.channelPath(channelUrl, `/messages/${parentMessageId}/thread`, options), { query });
  }

  // Pinned messages (§13.2)

  async pin(channelUrl, messageId, options) {
    await this.call("POST", this.channelPath(channelUrl, `/messages/${messageId}/pin`, options), { body: {} });
  }

  async unpin(channelUrl, messageId, options) {
    await this.call("DELETE", this.channelPath(channelUrl, `/messages/${messageId}/pin`, options));
  }

  async pinnedMessages(channelUrl, options) {
    return toPage(await this.call("GET", this.channelPath(channelUrl, "/pinned_messages", options), { query: page(options) }), "messages");
  }

  // Scheduled messages (§13.3), group channels.

  /** Schedules a user message (`params` as a send) for `scheduledAt` (ms, 5 minutes to 30 days ahead). */
  schedule(channelUrl, params, scheduledAt) {
    const { dedup_id: _ignored, ...content } = params;
    return this.call("POST", this.channelPath(channelUrl, "/scheduled_messages"), { body: { message_type: "MESG", ...content, scheduled_at: scheduledAt } });
  }

  /** Uploads a file now, to be sent as a file message at `scheduledAt`; `options` as `sendFileMessage`. */
  scheduleFile(channelUrl, params, scheduledAt, options) {
    const { dedup_id: _ignored, ...content } = params;
    return this.client.messages.upload(this.channelPath(channelUrl, "/scheduled_messages"), content, [["scheduled_at", String(scheduledAt)]], options);
  }

  scheduledMessage(channelUrl, id) {
    return this.call("GET", this.channelPath(channelUrl, `/scheduled_messages/${id}`));
  }

  /** Changes a pending scheduled message: `message`, `custom_type`, `data`, `mentioned_user_ids`, `scheduled_at`, … */
  updateScheduled(channelUrl, id, change) {
    return this.call("PUT", this.channelPath(channelUrl, `/scheduled_messages/${id}`), { body: change });
  }

  cancelScheduled(channelUrl, id) {
    return this.call("DELETE", this.channelPath(channelUrl, `/scheduled_messages/${id}`));
  }

  sendScheduledNow(channelUrl, id) {
    return this.call("POST", this.channelPath(channelUrl, `/scheduled_messages/${id}/send_now`), { body: {} });
  }

  /** The user's scheduled messages: `query` takes `channel_url`, `status` (array), `message_type`, `limit`, `token`. */
  async scheduledMessages(query = {}) {
    return toPage(await this.call("GET", "/v3/scheduled_messages", { query: { limit: 20, ...query } }), "scheduled_messages");
  }

  async scheduledMessageCount(query = {}) {
    return (await this.call("GET", "/v3/scheduled_messages/count", { query })).count;
  }

  // Polls (§13.4)

  /** `params`: `{ title, options: [text], allow_user_suggestion, allow_multiple_votes, close_at, data }`; send a message with `poll_id` to show it. */
  createPoll(params) {
    return this.call("POST", "/v3/polls", { body: params });
  }

  poll(id) {
    return this.call("GET", `/v3/polls/${id}`);
  }

  async polls(channelUrl, options = {}) {
    const query = { ...page(options), channel_url: channelUrl, channel_type: options.channelType ?? "group" };
    return toPage(await this.call("GET", "/v3/polls", { query }), "polls");
  }

  updatePoll(id, change) {
    return this.call("PUT", `/v3/polls/${id}`, { body: change });
  }

  async deletePoll(id) {
    await this.call("DELETE", `/v3/polls/${id}`);
  }

  /** Replaces the user's votes (`[]` takes them back). */
  vote(id, optionIds) {
    return this.call("PUT", `/v3/polls/${id}/vote`, { body: { option_ids: optionIds } });
  }

  closePoll(id) {
    return this.call("PUT", `/v3/polls/${id}/close`, { body: {} });
  }

  addPollOption(id, text) {
    return this.call("POST", `/v3/polls/${id}/options`, { body: { text } });
  }

  pollOption(pollId, optionId) {
    return this.call("GET", `/v3/polls/${pollId}/options/${optionId}`);
  }

  updatePollOption(pollId, optionId, text) {
    return this.call("PUT", `/v3/polls/${pollId}/options/${optionId}`, { body: { text } });
  }

  deletePollOption(pollId, optionId) {
    return this.call("DELETE", `/v3/polls/${pollId}/options/${optionId}`);
  }

  async voters(pollId, optionId, options) {
    return toPage(await this.call("GET", `/v3/polls/${pollId}/options/${optionId}/voters`, { query: page(options) }), "voters");
  }

  // Search (§13.5)

  /** `query`: `{ query, channel_url, custom_type, sender_id, message_ts_from, message_ts_to, sort_field, exact_match, advanced_query, limit, token }`. */
  async searchMessages(query) {
    const body = await this.call("GET", "/v3/search/messages", { query: { limit: 20, ...(typeof query === "string" ? { query } : query) } });
    return { items: body.results ?? [], next: body.next ?? "", hasMore: Boolean(body.has_next) };
  }

  // Metacounters (§13.6)

  metacounters(channelUrl, options) {
    return this.call("GET", this.channelPath(channelUrl, "/metacounter", options));
  }

  /** Adds `amount` to a counter (negative: subtracts), atomically; its value after. */
  async increase(channelUrl, key, amount, options) {
    const body = { value: Math.abs(amount), mode: amount < 0 ? "decrease" : "increase", upsert: true };
    const values = await this.call("PUT", this.channelPath(channelUrl, `/metacounter/${segment(key)}`, options), { body });
    return values[key] ?? 0;
  }

  async deleteCounter(channelUrl, key, options) {
    await this.call("DELETE", this.channelPath(channelUrl, `/metacounter/${segment(key)}`, options));
  }
}
