import assert from "node:assert/strict";
import { test } from "node:test";
import { MessageCollection, ParleyClient } from "../src/index.js";
import { ParleyServer, eventually, quick } from "./server.js";

const send = async (server, url, sender, text, kind = "group_channels") =>
  (await server.admin("POST", `/v3/${kind}/${url}/messages`, { user_id: sender, message: text })).message_id;

test("the collection pages back and follows the channel", async (t) => {
  const server = await ParleyServer.start();
  t.after(() => server.stop());
  const alice = await server.user("alice");
  const { client: bob, userId: bobId } = await server.connected("bob");
  t.after(() => bob.disconnect());
  const { channel_url: url } = await server.admin("POST", "/v3/group_channels", { user_ids: [alice.userId, bobId] });
  const ids = [];
  for (let i = 0; i < 25; i += 1) ids.push(await send(server, url, alice.userId, `m${i}`));
  const collection = new MessageCollection(bob, url, { pageSize: 10 });
  await collection.start();
  t.after(() => collection.stop());
  assert.deepEqual(collection.messages.map((m) => m.message), ids.slice(15).map((_, i) => `m${i + 15}`));
  assert.ok(collection.hasPrevious && !collection.hasNext);
  await collection.loadPrevious();
  await collection.loadPrevious();
  assert.deepEqual(collection.messages.map((m) => m.message_id), ids);
  assert.equal(collection.hasPrevious, false);

  const live = await send(server, url, alice.userId, "live");
  await server.admin("PUT", `/v3/group_channels/${url}/messages/${ids[3]}`, { message: "m3 edited" });
  await server.admin("DELETE", `/v3/group_channels/${url}/messages/${ids[4]}`);
  assert.ok(await eventually(() => collection.messages.at(-1)?.message_id === live));
  assert.ok(await eventually(() => collection.messages.find((m) => m.message_id === ids[3])?.message === "m3 edited"));
  assert.ok(await eventually(() => !collection.messages.some((m) => m.message_id === ids[4])));
  assert.equal(collection.messages.length, 25);
  // Reactions are applied to the held message as they come.
  await server.admin("POST", `/v3/group_channels/${url}/messages/${live}/reactions`, { user_id: alice.userId, reaction: "👍" });
  assert.ok(await eventually(() => collection.messages.at(-1).reactions?.[0]?.user_ids.join() === alice.userId));
  await server.admin("DELETE", `/v3/group_channels/${url}/messages/${live}/reactions?user_id=${alice.userId}&reaction=${encodeURIComponent("👍")}`);
  assert.ok(await eventually(() => (collection.messages.at(-1).reactions ?? []).length === 0));
});

test("away while 1,001 messages were sent: a resync catches the collection up", async (t) => {
  const server = await ParleyServer.start();
  t.after(() => server.stop());
  const alice = await server.user("alice");
  const bob = await server.user("bob");
  const { channel_url: url } = await server.admin("POST", "/v3/group_channels", { user_ids: [alice.userId, bob.userId] });
  const first = await send(server, url, alice.userId, "first");
  const second = await send(server, url, alice.userId, "second");
  const client = new ParleyClient(server.baseUrl);
  const resyncs = [];
  client.addConnectionHandler("test", { onResync: (changes) => resyncs.push(changes) });
  await client.connect(bob.userId, bob.token);
  t.after(() => client.disconnect());
  const collection = new MessageCollection(client, url);
  await collection.start();
  t.after(() => collection.stop());
  assert.deepEqual(collection.messages.map((m) => m.message_id), [first, second]);
  await client.disconnect();

  const sent = [];
  for (let i = 0; i < 1001; i += 1) sent.push(await send(server, url, alice.userId, `away ${i}`));
  await server.admin("PUT", `/v3/group_channels/${url}/messages/${first}`, { message: "first, edited" });
  await server.admin("DELETE", `/v3/group_channels/${url}/messages/${second}`);
  await client.connect(bob.userId, bob.token);
  assert.ok(await eventually(() => resyncs.length === 1, 30));
  assert.deepEqual(resyncs[0].updated.map((c) => c.channel_url), [url]);
  const expected = [first, ...sent];
  const caughtUp = await eventually(
    () => collection.messages.length === expected.length && collection.messages[0].message === "first, edited",
    30,
  );
  assert.ok(caughtUp, `${collection.messages.length} messages`);
  assert.deepEqual(collection.messages.map((m) => m.message_id), expected);
});

test("a failed send stays until resent or removed", async (t) => {
  const server = await ParleyServer.start();
  t.after(() => server.stop());
  const { client: alice, userId: aliceId } = await server.connected("alice");
  const bobUser = await server.user("bob");
  const bob = new ParleyClient(server.baseUrl, quick);
  await bob.connect(bobUser.userId, bobUser.token);
  t.after(() => Promise.all([alice.disconnect(), bob.disconnect()]));
  const { channel_url: url } = await alice.groupChannels.create({ user_ids: [aliceId, bobUser.userId], operator_ids: [aliceId] });
  const changes = [];
  const collection = new MessageCollection(bob, url, { onChange: (change) => changes.push(change.type) });
  await collection.start();
  t.after(() => collection.stop());

  await alice.groupChannels.setFrozen(url, true);
  await assert.rejects(collection.send({ message: "while frozen" }), { code: 900050 });
  let [pending] = collection.pendingMessages;
  assert.ok(pending.failure && !pending.failure.isRetryable);
  await alice.groupChannels.setFrozen(url, false);
  const resent = await collection.resend(pending.id);
  assert.deepEqual(collection.pendingMessages, []);
  assert.deepEqual(collection.messages.map((m) => m.message_id), [resent.message_id]);
  // Shown pending, failed, resending; then the pending one goes and the message is added, in
  // whichever order the REST answer and the socket's event arrive (once each).
  assert.deepEqual(changes.slice(0, 3), ["pending", "pending", "pending"]);
  assert.deepEqual(changes.slice(3, 5).sort(), ["added", "pendingRemoved"]);

  await server.kill();
  await assert.rejects(collection.send({ message: "offline" }), { status: 0 });
  [pending] = collection.pendingMessages;
  assert.ok(pending.failure.isRetryable);
  await server.start();
  const offline = await collection.resend(pending.id);
  assert.equal(offline.dedup_id, pending.id);
  assert.ok(await eventually(() => collection.messages.map((m) => m.message).join() === "while frozen,offline"));

  await alice.groupChannels.setFrozen(url, true);
  await collection.send({ message: "never" }).catch(() => {});
  collection.removeFailed(collection.pendingMessages[0].id);
  assert.deepEqual(collection.pendingMessages, []);
});

test("an open channel's screen catches up after a reconnection that outlasted the participation", async (t) => {
  const first = await ParleyServer.start();
  const second = await ParleyServer.start();
  t.after(() => Promise.all([first.stop(), second.stop()]));
  const alice = await first.user("alice");
  const bob = await first.user("bob");
  const lobby = `lobby-${bob.userId}`;
  await first.admin("POST", "/v3/open_channels", { channel_url: lobby });
  await first.admin("PUT", `/v3/open_channels/${lobby}/enter`, { user_id: alice.userId });
  const ids = [];
  for (let i = 0; i < 3; i += 1) ids.push(await send(first, lobby, alice.userId, `m${i}`, "open_channels"));
  const client = new ParleyClient(first.baseUrl, quick);
  await client.connect(bob.userId, bob.token);
  t.after(() => client.disconnect());
  await client.openChannels.enter(lobby);
  const collection = new MessageCollection(client, lobby, { channelType: "open" });
  await collection.start();
  t.after(() => collection.stop());
  assert.deepEqual(collection.messages.map((m) => m.message_id), ids);

  await first.kill();
  assert.ok(await eventually(() => client.connectionState !== "open"));
  await second.admin("PUT", `/v3/open_channels/${lobby}/exit`, { user_id: bob.userId });
  const missed = await send(second, lobby, alice.userId, "missed", "open_channels");
  await second.admin("PUT", `/v3/open_channels/${lobby}/messages/${ids[0]}`, { message: "m0 edited" });
  await second.admin("DELETE", `/v3/open_channels/${lobby}/messages/${ids[1]}`);
  await first.start();
  const expected = [ids[0], ids[2], missed];
  assert.ok(await eventually(() => collection.messages.map((m) => m.message_id).join() === expected.join() && collection.messages[0].message === "m0 edited", 30));
  assert.ok(await eventually(async () => (await client.openChannels.participants(lobby)).items.some((u) => u.user_id === bob.userId)));
  await send(first, lobby, alice.userId, "live", "open_channels");
  assert.ok(await eventually(() => collection.messages.at(-1)?.message === "live"));
});
