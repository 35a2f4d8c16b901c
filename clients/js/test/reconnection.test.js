import assert from "node:assert/strict";
import { test } from "node:test";
import { ParleyClient } from "../src/index.js";
import { ParleyServer, eventually, quick } from "./server.js";

test("a server restart missing 500 messages delivers each once, in order, then live", async (t) => {
  const first = await ParleyServer.start();
  const second = await ParleyServer.start();
  t.after(() => Promise.all([first.stop(), second.stop()]));
  const alice = await first.user("alice");
  const bob = await first.user("bob");
  const channel = await first.admin("POST", "/v3/group_channels", { user_ids: [alice.userId, bob.userId] });
  const client = new ParleyClient(first.baseUrl, quick);
  await client.connect(bob.userId, bob.token);
  t.after(() => client.disconnect());
  const received = [];
  const states = [];
  client.addChannelHandler("test", { onMessageReceived: (_, message) => received.push(message.message_id) });
  client.addConnectionHandler("test", { onReconnectSucceeded: () => states.push("reconnected") });
  const path = `/v3/group_channels/${channel.channel_url}/messages`;
  const before = await first.admin("POST", path, { user_id: alice.userId, message: "before" });
  assert.ok(await eventually(() => received.length === 1));

  await first.kill();
  assert.ok(await eventually(() => client.connectionState !== "open"));
  const sent = [];
  for (let i = 0; i < 500; i += 1) sent.push((await second.admin("POST", path, { user_id: alice.userId, message: `m${i}` })).message_id);
  await first.start();
  assert.ok(await eventually(() => received.length === 501, 30), `received ${received.length}`);
  assert.deepEqual(received, [before.message_id, ...sent]);
  assert.ok(states.includes("reconnected"));
  await first.admin("POST", path, { user_id: alice.userId, message: "after" });
  assert.ok(await eventually(() => received.length === 502));
});

test("an expired token is renewed through the provider; without one the session ends", async (t) => {
  const server = await ParleyServer.start();
  t.after(() => server.stop());
  const bob = await server.user("bob");
  const soon = await server.token(bob.userId, Date.now() + 1500);
  let asked = 0;
  const client = new ParleyClient(server.baseUrl, quick);
  await client.connect(bob.userId, soon, async (userId) => {
    asked += 1;
    return server.token(userId);
  });
  t.after(() => client.disconnect());
  const states = [];
  client.onConnectionState((state) => states.push(state));
  // The stream closes with 4001 at the expiry and comes back with the provider's token.
  assert.ok(await eventually(() => asked === 1 && client.connectionState === "open" && states.includes("reconnecting"), 15));
  const me = await client.users.get(bob.userId);
  assert.equal(me.user_id, bob.userId);

  // A revoked token and no provider: a REST call fails with 401, the stream closes for good.
  const carol = await server.user("carol");
  const alone = new ParleyClient(server.baseUrl, quick);
  await alone.connect(carol.userId, carol.token);
  let reason = null;
  alone.addConnectionHandler("test", { onDisconnected: (_, why) => (reason = why) });
  await server.admin("DELETE", `/v3/users/${carol.userId}/token`);
  assert.ok(await eventually(() => reason === "unauthorized"));
  await assert.rejects(alone.users.get(carol.userId), { status: 401 });
  await alone.disconnect();
});

test("connecting again resumes after the last event handled", async (t) => {
  const server = await ParleyServer.start();
  t.after(() => server.stop());
  const alice = await server.user("alice");
  const bob = await server.user("bob");
  const channel = await server.admin("POST", "/v3/group_channels", { user_ids: [alice.userId, bob.userId] });
  const path = `/v3/group_channels/${channel.channel_url}/messages`;
  const client = new ParleyClient(server.baseUrl);
  const received = [];
  client.addChannelHandler("test", { onMessageReceived: (_, message) => received.push(message.message) });
  await client.connect(bob.userId, bob.token);
  await server.admin("POST", path, { user_id: alice.userId, message: "one" });
  assert.ok(await eventually(() => received.length === 1));
  await client.disconnect();
  await server.admin("POST", path, { user_id: alice.userId, message: "two" });
  await client.connect(bob.userId, bob.token);
  t.after(() => client.disconnect());
  assert.ok(await eventually(() => received.length === 2));
  assert.deepEqual(received, ["one", "two"]);
});
