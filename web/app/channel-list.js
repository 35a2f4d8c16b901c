import { byId, h } from "./dom.js";

/**
 * The sidebar: the user's group channels, newest activity first, with unread badges kept current
 * by `unread_count_changed` and new messages; or the open channels to enter.
 */
export class ChannelList {
  constructor(parley, onOpen) {
    this.parley = parley;
    this.onOpen = onOpen;
    this.kind = "group";
    this.channels = [];
    this.selected = null;
    this.stopListening = parley.onEvent((frame) => this.apply(frame));
  }

  stop() {
    this.stopListening();
  }

  async show(kind) {
    this.kind = kind;
    byId("tab-group").classList.toggle("active", kind === "group");
    byId("tab-open").classList.toggle("active", kind === "open");
    const page =
      kind === "group"
        ? await this.parley.groupChannels.myChannels({ order: "latest_last_message", show_empty: true, show_member: true, limit: 50 })
        : await this.parley.openChannels.list({ limit: 50 });
    this.channels = page.items;
    this.render();
  }

  select(channelUrl) {
    this.selected = channelUrl;
    const channel = this.channels.find((c) => c.channel_url === channelUrl);
    if (channel) channel.unread_message_count = 0;
    this.render();
  }

  apply(frame) {
    if (this.kind !== "group") return;
    if (frame.type === "unread_count_changed" && frame.data?.channel_url) {
      const channel = this.channels.find((c) => c.channel_url === frame.data.channel_url);
      if (channel) channel.unread_message_count = frame.channel_url === this.selected ? 0 : frame.data.unread_message_count;
      this.render();
    } else if (frame.type === "message_received" && frame.channel_type === "group") {
      const channel = this.channels.find((c) => c.channel_url === frame.channel_url);
      if (!channel) {
        this.show("group");
        return;
      }
      channel.last_message = frame.data;
      this.channels = [channel, ...this.channels.filter((c) => c !== channel)];
      this.render();
    } else if (["channel_changed", "member_joined", "user_invited"].includes(frame.type) && !this.channels.some((c) => c.channel_url === frame.channel_url)) {
      this.show("group");
    } else if (frame.type === "channel_deleted" || (frame.type === "member_left" && frame.data?.users?.some((u) => u.user_id === this.parley.currentUserId))) {
      this.channels = this.channels.filter((c) => c.channel_url !== frame.channel_url);
      this.render();
    }
  }

  render() {
    const items = this.channels.map((channel) => {
      const unread = channel.unread_message_count ?? 0;
      const last = channel.last_message;
      const preview = last ? `${last.user?.nickname || last.user?.user_id || "admin"}: ${last.type === "FILE" ? `📎 ${last.file?.name ?? "a file"}` : last.message}` : "";
      return h(
        "li",
        { class: channel.channel_url === this.selected ? "selected" : undefined, dataset: { channelUrl: channel.channel_url } },
        h(
          "button",
          { type: "button", onclick: () => this.onOpen(channel, this.kind, this.title(channel)) },
          h("span", { class: "name" }, this.title(channel)),
          unread > 0 ? h("span", { class: "badge", "aria-label": `${unread} unread` }, unread) : null,
          this.kind === "open" ? h("span", { class: "count" }, `${channel.participant_count} here`) : h("span", { class: "last-message" }, preview),
        ),
      );
    });
    byId("channel-list").replaceChildren(...items);
  }

  title(channel) {
    if (channel.name) return channel.name;
    const others = (channel.members ?? []).filter((m) => m.user_id !== this.parley.currentUserId);
    return others.map((m) => m.nickname || m.user_id).join(", ") || channel.channel_url;
  }
}
