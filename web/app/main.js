// The reference chat app: built only on parley-js (served at /sdk/). Signs a user in with a
// session token (kept in memory only), lists their channels with unread badges, and opens a
// group or open channel in a chat view.
import { ParleyClient } from "../sdk/index.js";
import { ChannelList } from "./channel-list.js";
import { ChannelView } from "./channel-view.js";
import { byId } from "./dom.js";

const parley = new ParleyClient(location.origin);
let list = null;
let view = null;

byId("sign-in-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const userId = byId("user-id").value.trim();
  const token = byId("session-token").value.trim();
  byId("sign-in-error").textContent = "";
  byId("sign-in-button").disabled = true;
  try {
    await parley.connect(userId, token);
  } catch (error) {
    byId("sign-in-error").textContent = error.status === 401 ? "That token is not valid for this user." : `Could not connect: ${error.message}`;
    return;
  } finally {
    byId("sign-in-button").disabled = false;
  }
  byId("session-token").value = "";
  byId("sign-in").hidden = true;
  byId("chat").hidden = false;
  byId("me").textContent = userId;
  view = new ChannelView(parley);
  list = new ChannelList(parley, (channel, type, title) => {
    list.select(channel.channel_url);
    view.open(channel, type, title);
  });
  await list.show("group");
});

parley.onConnectionState((state, reason) => {
  byId("connection").textContent = state === "open" ? "" : state === "closed" && reason === "unauthorized" ? "signed out" : `${state}…`;
  byId("connection").dataset.state = state;
});

byId("sign-out").addEventListener("click", async () => {
  view?.close();
  list?.stop();
  await parley.disconnect();
  byId("chat").hidden = true;
  byId("sign-in").hidden = false;
});

byId("tab-group").addEventListener("click", () => list?.show("group"));
byId("tab-open").addEventListener("click", () => list?.show("open"));

byId("new-chat").addEventListener("submit", async (event) => {
  event.preventDefault();
  const others = byId("new-chat-users").value.split(",").map((id) => id.trim()).filter(Boolean);
  if (others.length === 0) return;
  try {
    const channel = await parley.groupChannels.create({ user_ids: [parley.currentUserId, ...others], is_distinct: true });
    byId("new-chat-users").value = "";
    await list.show("group");
    list.select(channel.channel_url);
    // The list's copy carries the members, for the title.
    const listed = list.channels.find((c) => c.channel_url === channel.channel_url) ?? channel;
    view.open(listed, "group", list.title(listed));
  } catch (error) {
    byId("new-chat-users").setCustomValidity(error.message);
    byId("new-chat-users").reportValidity();
    byId("new-chat-users").setCustomValidity("");
  }
});
