import { h } from "../app/dom.js";
import { seg } from "./api.js";
import { figures, webhooks } from "./operations.js";
import { button, form, table, when, who } from "./widgets.js";

const channelPath = (channel) => `/v3/${channel.channel_type === "open" ? "open_channels" : "group_channels"}/${seg(channel.channel_url)}`;

/** The review queue: open reports first; resolve, dismiss, or ban the offender where it happened. */
async function reports({ api, act }) {
  const status = reports.status ?? "open";
  const page = await api.get("/v3/report", { status, limit: 50 });
  const filter = h("select", { "aria-label": "status", onchange: (event) => { reports.status = event.target.value; act("Filter", async () => {}); } },
    ["open", "resolved", "dismissed"].map((s) => h("option", { value: s, selected: s === status }, s)));
  const resolve = (report, state, resolution) => act(`Report ${report.report_id}`, () => api.put(`/v3/report/${report.report_id}`, { status: state, resolution }));
  return h("div", {}, h("h2", {}, "Reports ", filter),
    table([
      ["When", (r) => when(r.created_at)],
      ["What", (r) => `${r.report_type}: ${r.report_category}`],
      ["Reported by", (r) => who(r.reporting_user)],
      ["About", (r) => who(r.offending_user)],
      ["Message", (r) => r.reported_message?.message ?? ""],
      ["Channel", (r) => (r.channel ? r.channel.name || r.channel.channel_url : "")],
      ["Description", (r) => r.report_description ?? ""],
      ["", (r) => r.status !== "open" ? `${r.status}${r.resolution ? `: ${r.resolution}` : ""}` : h("span", { class: "actions", dataset: { reportId: r.report_id } },
        button("Resolve", () => resolve(r, "resolved", "reviewed")),
        button("Dismiss", () => resolve(r, "dismissed")),
        r.offending_user && r.channel ? button("Ban in channel", () => act(`Ban ${r.offending_user.user_id}`, async () => {
          await api.post(`${channelPath(r.channel)}/ban`, { user_id: r.offending_user.user_id, seconds: -1, description: `report ${r.report_id}` });
          await api.put(`/v3/report/${r.report_id}`, { status: "resolved", resolution: `banned from ${r.channel.channel_url}` });
        }), "ban") : null)],
    ], page.report_logs ?? [], "No reports waiting."));
}

/** Users: find by id or nickname; deactivate, revoke every session token. */
async function users({ api, act }) {
  const query = users.query ?? {};
  const page = await api.get("/v3/users", { limit: 50, user_ids: query.user_ids, nickname_startswith: query.nickname_startswith });
  return h("div", {}, h("h2", {}, "Users"),
    form("user-search", [["user_ids", "user ids (a,b)"], ["nickname_startswith", "nickname starts with"]], "Search", (values) => { users.query = values; act("Search", async () => {}); }),
    table([
      ["User", (u) => who(u)],
      ["Active", (u) => (u.is_active ? "yes" : "no")],
      ["Online", (u) => (u.is_online ? "yes" : when(u.last_seen_at))],
      ["", (u) => h("span", { class: "actions", dataset: { userId: u.user_id } },
        u.is_active ? button("Deactivate", () => act(`Deactivate ${u.user_id}`, () => api.put(`/v3/users/${seg(u.user_id)}`, { is_active: false }))) : null,
        button("Revoke tokens", () => act(`Revoke ${u.user_id}'s tokens`, () => api.delete(`/v3/users/${seg(u.user_id)}/token`))))],
    ], page.users ?? []));
}

/** Channels: find by name or URL; members, freeze, delete, an admin message, bans and mutes. */
async function channels({ api, act }) {
  const query = channels.query ?? {};
  const page = await api.get("/v3/group_channels", { limit: 30, show_member: true, show_empty: true, name_contains: query.name_contains, channel_urls: query.channel_urls });
  const message = (channel) => form(`admin-message-${channel.channel_url}`, [["message", "admin message"]], "Send", ({ message: text }) =>
    text && act("Admin message", () => api.post(`${channelPath(channel)}/messages`, { message_type: "ADMM", message: text })));
  return h("div", {}, h("h2", {}, "Group channels"),
    form("channel-search", [["name_contains", "name contains"], ["channel_urls", "channel urls (a,b)"]], "Search", (values) => { channels.query = values; act("Search", async () => {}); }),
    table([
      ["Channel", (c) => h("span", {}, h("strong", {}, c.name || "(no name)"), h("br"), c.channel_url)],
      ["Members", (c) => (c.members ?? []).map((m) => m.user_id).join(", ")],
      ["Frozen", (c) => (c.freeze ? "yes" : "no")],
      ["", (c) => h("span", { class: "actions", dataset: { channelUrl: c.channel_url } },
        button(c.freeze ? "Unfreeze" : "Freeze", () => act(c.freeze ? "Unfreeze" : "Freeze", () => api.put(`${channelPath(c)}/freeze`, { freeze: !c.freeze }))),
        button("Bans", () => act("Bans", async () => { channels.restricted = { kind: "ban", channel: c, list: (await api.get(`${channelPath(c)}/ban`, { limit: 100 })).banned_list ?? [] }; })),
        button("Mutes", () => act("Mutes", async () => { channels.restricted = { kind: "mute", channel: c, list: (await api.get(`${channelPath(c)}/mute`, { limit: 100 })).muted_list ?? [] }; })),
        button("Delete", () => act(`Delete ${c.channel_url}`, () => api.delete(channelPath(c))), "danger"),
        message(c))],
    ], page.channels ?? []),
    channels.restricted ? restrictions(api, act, channels.restricted) : null);
}

/** Who is banned or muted in a channel, and until when; each can be lifted. */
function restrictions(api, act, { kind, channel, list }) {
  const [title, lift] = kind === "ban" ? ["Banned from", "Unban"] : ["Muted in", "Unmute"];
  return h("div", { id: "restrictions" }, h("h3", {}, `${title} ${channel.name || channel.channel_url}`),
    table([
      ["User", (r) => who(r.user)], ["Until", (r) => (r.end_at === -1 ? "for good" : when(r.end_at))], ["Why", (r) => r.description ?? ""],
      ["", (r) => button(lift, () => act(`${lift} ${r.user.user_id}`, async () => {
        await api.delete(`${channelPath(channel)}/${kind}/${seg(r.user.user_id)}`);
        channels.restricted = null;
      }))],
    ], list, kind === "ban" ? "Nobody is banned." : "Nobody is muted."));
}

/** The audit log: who did what to whom. */
async function audit({ api }) {
  const page = await api.get("/v3/audit_logs", { limit: 100 });
  return h("div", {}, h("h2", {}, "Audit log"),
    table([
      ["When", (e) => when(e.created_at)], ["Action", (e) => e.action], ["By", (e) => (typeof e.actor === "string" ? e.actor : e.actor?.user_id ?? "admin")],
      ["User", (e) => e.target_user_id ?? ""], ["Channel", (e) => e.channel_url ?? ""], ["Detail", (e) => (e.details && Object.keys(e.details).length ? JSON.stringify(e.details) : "")],
    ], page.audit_logs ?? []));
}

export const sections = { reports, users, channels, audit, webhooks, figures };
