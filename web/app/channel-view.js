import { MessageCollection } from "../sdk/index.js";
import { byId } from "./dom.js";
import { messageItem, pendingItem } from "./message-item.js";

/**
 * One channel on screen: its messages (a MessageCollection), the composer with typing and file
 * uploads, who is typing, and who has read what (group channels); an open channel is entered
 * while it is shown.
 */
export class ChannelView {
  constructor(parley) {
    this.parley = parley;
    this.collection = null;
    this.readTs = new Map();
    this.typingSince = 0;
    parley.addChannelHandler("channel-view", {
      onTypingStatusUpdated: (channel, users) => this.showTyping(channel, users),
      onReadStatusUpdated: (channel, userId, ts) => this.noteRead(channel, userId, ts),
    });
    byId("composer").addEventListener("submit", (event) => this.send(event));
    byId("text").addEventListener("input", () => this.typing());
    byId("file").addEventListener("change", () => this.upload());
    byId("load-earlier").addEventListener("click", () => this.loadEarlier());
  }

  async open(channel, kind, title) {
    await this.close();
    this.kind = kind;
    this.channelUrl = channel.channel_url;
    byId("channel").hidden = false;
    byId("channel").dataset.channelUrl = channel.channel_url;
    byId("channel-name").textContent = title || channel.name || channel.channel_url;
    byId("typing").textContent = "";
    byId("status").textContent = "";
    if (kind === "open") {
      await this.parley.openChannels.enter(channel.channel_url);
      byId("channel-info").textContent = "open channel";
    } else {
      const full = await this.parley.groupChannels.get(channel.channel_url);
      this.readTs = new Map((full.members ?? []).filter((m) => m.user_id !== this.parley.currentUserId).map((m) => [m.user_id, m.read_ts ?? 0]));
      byId("channel-info").textContent = `${full.member_count} members`;
    }
    const collection = new MessageCollection(this.parley, channel.channel_url, { channelType: kind, onChange: () => this.render() });
    this.collection = collection;
    await collection.start();
    this.render(true);
    this.markRead();
  }

  async close() {
    const collection = this.collection;
    if (!collection) return;
    this.collection = null;
    collection.stop();
    if (this.kind === "open") await this.parley.openChannels.exit(collection.channelUrl).catch(() => {});
  }

  render(scrollToEnd = false) {
    const collection = this.collection;
    if (!collection) return;
    const list = byId("messages");
    const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    const me = this.parley.currentUserId;
    const items = collection.messages.map((message) =>
      messageItem(message, { me, readBy: this.readersOf(message), actions: this.actionsFor(message) }),
    );
    const pending = collection.pendingMessages.map((p) => pendingItem(p, { resend: () => this.resend(p.id), remove: () => collection.removeFailed(p.id) }));
    list.replaceChildren(...items, ...pending);
    byId("load-earlier").hidden = !collection.hasPrevious;
    if (scrollToEnd || atEnd) list.scrollTop = list.scrollHeight;
    if (document.hasFocus() && this.kind === "group") this.markRead();
  }

  /** The other members who have read up to the message (group channels: my own messages only). */
  readersOf(message) {
    if (this.kind !== "group" || message.user?.user_id !== this.parley.currentUserId) return null;
    return [...this.readTs.entries()].filter(([, ts]) => ts >= message.created_at).map(([userId]) => userId);
  }

  actionsFor(message) {
    const url = this.channelUrl;
    const options = { channelType: this.kind };
    return {
      react: (key) => this.attempt(async () => {
        const mine = message.reactions?.find((r) => r.key === key)?.user_ids.includes(this.parley.currentUserId);
        if (mine) await this.parley.messages.removeReaction(url, message.message_id, key, options);
        else await this.parley.messages.addReaction(url, message.message_id, key, options);
      }),
      startEdit: () => {
        this.editing = message;
        byId("text").value = message.message;
        byId("send").textContent = "Save";
        byId("text").focus();
      },
      remove: () => this.attempt(() => this.parley.messages.delete(url, message.message_id, options)),
      report: () => this.attempt(async () => {
        await this.parley.moderation.reportMessage(url, message.message_id, "harassing", "reported from the chat app", options);
        byId("status").textContent = "Reported: an operator will review it.";
      }),
      translate: () => this.attempt(async () => {
        const language = (navigator.language || "en").slice(0, 2);
        const translated = await this.parley.messages.translate(url, message.message_id, [language], options);
        this.collection?.replace([translated]);
      }),
    };
  }

  async send(event) {
    event.preventDefault();
    const text = byId("text").value.trim();
    if (!text || !this.collection) return;
    byId("text").value = "";
    this.typingSince = 0;
    const editing = this.editing;
    this.editing = null;
    byId("send").textContent = "Send";
    if (editing) {
      await this.attempt(() => this.parley.messages.update(this.channelUrl, editing.message_id, { message: text }, { channelType: this.kind }));
      return;
    }
    await this.attempt(() => this.collection.send({ message: text }));
    this.render(true);
  }

  async upload() {
    const input = byId("file");
    const file = input.files?.[0];
    input.value = "";
    if (!file || !this.collection) return;
    const bar = byId("upload-progress");
    bar.hidden = false;
    bar.value = 0;
    const sizes = file.type.startsWith("image/") ? [[240, 240]] : [];
    await this.attempt(() => this.collection.sendFile({ file, file_name: file.name, file_type: file.type, thumbnail_sizes: sizes }, { onProgress: (sent, total) => (bar.value = sent / total) }));
    bar.hidden = true;
    this.render(true);
  }

  resend(id) {
    return this.attempt(() => this.collection.resend(id));
  }

  async loadEarlier() {
    const list = byId("messages");
    const before = list.scrollHeight;
    await this.collection?.loadPrevious();
    list.scrollTop = list.scrollHeight - before;
  }

  /** Typing in a group channel: a start every few seconds while typing, an end when cleared. */
  typing() {
    if (this.kind !== "group") return;
    const empty = byId("text").value === "";
    try {
      if (empty && this.typingSince) {
        this.parley.receipts.endTyping(this.channelUrl);
        this.typingSince = 0;
      } else if (!empty && Date.now() - this.typingSince > 3000) {
        this.parley.receipts.startTyping(this.channelUrl);
        this.typingSince = Date.now();
      }
    } catch {
      // Not connected right now: typing is best effort.
    }
  }

  showTyping(channel, users) {
    if (channel.channel_url !== this.channelUrl) return;
    const others = users.filter((u) => u.user_id !== this.parley.currentUserId).map((u) => u.nickname || u.user_id);
    byId("typing").textContent = others.length === 0 ? "" : `${others.join(", ")} ${others.length === 1 ? "is" : "are"} typing…`;
  }

  noteRead(channel, userId, ts) {
    if (channel.channel_url !== this.channelUrl || userId === this.parley.currentUserId) return;
    this.readTs.set(userId, ts);
    this.render();
  }

  markRead() {
    const newest = this.collection?.messages.at(-1);
    if (!newest || newest.created_at <= (this.markedUpTo ?? 0)) return;
    this.markedUpTo = newest.created_at;
    this.parley.receipts.markAsRead(this.channelUrl).catch(() => {});
  }

  async attempt(action) {
    try {
      byId("status").textContent = "";
      return await action();
    } catch (error) {
      byId("status").textContent = error.message;
      return null;
    }
  }
}
