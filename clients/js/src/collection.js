import { ParleyError } from "./errors.js";

/**
 * A channel's messages around a point, for a chat screen: loaded in pages either way and kept
 * consistent by the event stream (new messages at the live end, edits, deletes) and, when the
 * stream could not bring everything (`resync_required`; for an open channel, any reconnection),
 * by the history and the message changelog. No gap, no duplicate: messages are kept in
 * `created_at` order, one per id. Messages sent through it are pending until the server has them
 * and kept, failed, when their send fails, to `resend` (with the same dedup id) or `removeFailed`.
 *
 * `onChange(change)` hears `{ type: "added" | "updated", messages }`, `{ type: "deleted", ids }`,
 * `{ type: "pending", pending }` and `{ type: "pendingRemoved", id }`.
 */
export class MessageCollection {
  constructor(client, channelUrl, { channelType = "group", startingPoint = Number.MAX_SAFE_INTEGER, pageSize = 30, onChange } = {}) {
    Object.assign(this, { client, channelUrl, channelType, startingPoint, pageSize });
    this.onChange = onChange ?? (() => {});
    this.messages = [];
    this.pendingMessages = [];
    this.hasPrevious = true;
    this.hasNext = true;
    this.syncedAt = 0;
    /** Events that came while the first page loaded: applied after it, so none is lost in between. */
    this.held = [];
    this.queue = Promise.resolve();
    this.stopListening = null;
  }

  get options() {
    return { channelType: this.channelType };
  }

  /** Loads the messages around the starting point and starts following the channel. */
  async start() {
    this.stopListening = this.client.onEvent((frame) => {
      if (this.held) this.held.push(frame);
      else this.queue = this.queue.then(() => this.apply(frame)).catch(() => {});
    });
    const loaded = await this.list({ message_ts: this.startingPoint, prev_limit: this.pageSize, next_limit: this.pageSize });
    const before = loaded.filter((m) => m.created_at <= this.startingPoint).length;
    this.hasPrevious = before >= this.pageSize;
    this.hasNext = loaded.length - before >= this.pageSize;
    this.syncedAt = Date.now() - 60_000;
    this.merge(loaded);
    const waiting = this.held;
    this.held = null;
    for (const frame of waiting) await this.apply(frame);
  }

  stop() {
    this.stopListening?.();
    this.stopListening = null;
  }

  /** A page of older messages; returns them (none at the channel's beginning). */
  async loadPrevious() {
    const oldest = this.messages[0];
    if (!oldest) return [];
    const page = await this.list({ message_id: oldest.message_id, prev_limit: this.pageSize, next_limit: 0, include: false });
    this.hasPrevious = page.length >= this.pageSize;
    return this.merge(page);
  }

  /** A page of newer messages; at the live end new messages come by themselves. */
  async loadNext() {
    const newest = this.messages.at(-1);
    if (!newest) return [];
    const page = await this.after(newest.message_id, this.pageSize);
    this.hasNext = page.length >= this.pageSize;
    return this.merge(page);
  }

  list(query) {
    return this.client.messages.list(this.channelUrl, query, this.options);
  }

  after(messageId, limit) {
    return this.list({ message_id: messageId, prev_limit: 0, next_limit: limit, include: false });
  }

  async apply(frame) {
    if (frame.type === "resync_required" || (frame.type === "reconnected" && this.channelType === "open")) {
      await this.catchUp().catch(() => {});
      return;
    }
    if (frame.channel_url !== this.channelUrl) return;
    if (frame.ts) this.syncedAt = Math.max(this.syncedAt, frame.ts);
    if (frame.type === "message_received" && !this.hasNext && frame.data) this.merge([frame.data]);
    else if (frame.type === "message_updated" && frame.data) this.replace([frame.data]);
    else if (frame.type === "message_deleted" && frame.data) this.remove([frame.data.message_id]);
    else if (frame.type === "reaction_updated" && frame.data) this.react(frame.data, frame.ts);
  }

  /** A reaction added or removed: applied to the held message's `reactions` (EVENTS.md). */
  react({ message_id: messageId, key, user_id: userId, operation }, ts) {
    const index = this.messages.findIndex((m) => m.message_id === messageId);
    if (index < 0) return;
    const message = this.messages[index];
    const reactions = (message.reactions ?? []).map((r) => ({ ...r, user_ids: [...r.user_ids] }));
    let reaction = reactions.find((r) => r.key === key);
    if (!reaction) {
      reaction = { key, user_ids: [], updated_at: ts ?? 0 };
      reactions.push(reaction);
    }
    const had = reaction.user_ids.includes(userId);
    if (operation === "add" && !had) reaction.user_ids.push(userId);
    else if (operation === "delete" && had) reaction.user_ids = reaction.user_ids.filter((id) => id !== userId);
    else return;
    reaction.updated_at = ts ?? reaction.updated_at;
    this.messages[index] = { ...message, reactions: reactions.filter((r) => r.user_ids.length > 0) };
    this.onChange({ type: "updated", messages: [this.messages[index]] });
  }

  /** What the stream could not bring: new messages (at the live end), then edits and deletes. */
  async catchUp() {
    if (!this.hasNext) {
      for (let newest = this.messages.at(-1); newest; newest = this.messages.at(-1)) {
        const page = await this.after(newest.message_id, 200);
        this.merge(page);
        if (page.length < 200) break;
      }
    }
    if (this.channelType === "open") await this.rereadWindow();
    else await this.readChangelog();
    this.syncedAt = Date.now() - 60_000;
  }

  async readChangelog() {
    let token = null;
    do {
      const log = await this.client.messages.changelogs(this.channelUrl, token ? { token } : { changeTs: this.syncedAt - 1_000 });
      this.replace(log.updated ?? []);
      this.remove(log.deleted ?? []);
      token = log.has_more ? log.next : null;
    } while (token);
  }

  /** An open channel keeps no changelog: the held window is read again from its oldest message's time. */
  async rereadWindow() {
    const oldest = this.messages[0];
    const newest = this.messages.at(-1);
    if (!oldest) return;
    const found = [];
    let query = { message_ts: oldest.created_at, prev_limit: 0, next_limit: 200 };
    for (;;) {
      const page = await this.list(query);
      found.push(...page);
      const last = page.at(-1);
      if (page.length < 200 || !last || compare(last, newest) >= 0) break;
      query = { message_id: last.message_id, prev_limit: 0, next_limit: 200, include: false };
    }
    const present = new Set(found.map((m) => m.message_id));
    this.replace(found);
    this.remove(this.messages.filter((m) => compare(m, newest) <= 0 && !present.has(m.message_id)).map((m) => m.message_id));
  }

  /** Adds the messages not held yet, in order; returns those added. */
  merge(incoming) {
    const known = new Set(this.messages.map((m) => m.message_id));
    const added = incoming.filter((m) => !known.has(m.message_id) && !m.is_removed);
    if (added.length === 0) return [];
    for (const message of added) known.add(message.message_id);
    this.messages = [...this.messages, ...added].sort(compare);
    this.onChange({ type: "added", messages: added });
    return added;
  }

  /** Newer versions of held messages (an older one, replayed after a catch-up read it, is ignored). */
  replace(changed) {
    const updated = [];
    for (const message of changed) {
      const index = this.messages.findIndex((m) => m.message_id === message.message_id);
      if (index < 0) continue;
      if (message.is_removed) this.remove([message.message_id]);
      else if ((message.updated_at ?? 0) >= (this.messages[index].updated_at ?? 0) && JSON.stringify(message) !== JSON.stringify(this.messages[index])) {
        this.messages[index] = message;
        updated.push(message);
      }
    }
    if (updated.length) this.onChange({ type: "updated", messages: updated });
  }

  remove(ids) {
    const gone = new Set(ids.filter((id) => this.messages.some((m) => m.message_id === id)));
    if (gone.size === 0) return;
    this.messages = this.messages.filter((m) => !gone.has(m.message_id));
    this.onChange({ type: "deleted", ids: [...gone].sort((a, b) => a - b) });
  }

  // This device's sends.

  /** Sends a user message: pending at once, then in `messages`; on failure kept, failed. */
  send(params) {
    const dedupId = params.dedup_id ?? crypto.randomUUID();
    return this.deliver({ id: dedupId, kind: "user", params: { ...params, dedup_id: dedupId }, created_at: Date.now(), failure: null }, {});
  }

  /** Sends a file message, as `send`; `options` takes `onProgress` and `signal` (a cancelled upload stays failed). */
  sendFile(params, options = {}) {
    const dedupId = params.dedup_id ?? crypto.randomUUID();
    return this.deliver({ id: dedupId, kind: "file", params: { ...params, dedup_id: dedupId }, created_at: Date.now(), failure: null }, options);
  }

  /** Sends a failed message again with its dedup id: never a second message if the first got through. */
  resend(id, options = {}) {
    const failed = this.pendingMessages.find((p) => p.id === id && p.failure);
    if (!failed) return Promise.reject(new ParleyError(0, 0, `No failed message ${id} to resend.`));
    return this.deliver(failed, options);
  }

  removeFailed(id) {
    if (!this.pendingMessages.some((p) => p.id === id && p.failure)) return;
    this.pendingMessages = this.pendingMessages.filter((p) => p.id !== id);
    this.onChange({ type: "pendingRemoved", id });
  }

  async deliver(message, options) {
    this.keep({ ...message, failure: null });
    try {
      const sent =
        message.kind === "user"
          ? await this.client.messages.sendUserMessage(this.channelUrl, message.params, this.options)
          : await this.client.messages.sendFileMessage(this.channelUrl, message.params, { ...this.options, ...options });
      this.pendingMessages = this.pendingMessages.filter((p) => p.id !== message.id);
      this.onChange({ type: "pendingRemoved", id: message.id });
      if (!this.hasNext) this.merge([sent]);
      return sent;
    } catch (error) {
      this.keep({ ...message, failure: error });
      throw error;
    }
  }

  keep(pending) {
    const index = this.pendingMessages.findIndex((p) => p.id === pending.id);
    if (index >= 0) this.pendingMessages[index] = pending;
    else this.pendingMessages.push(pending);
    this.onChange({ type: "pending", pending });
  }
}

/** `created_at` order, then id. */
function compare(a, b) {
  return a.created_at - b.created_at || a.message_id - b.message_id;
}
