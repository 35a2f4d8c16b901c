import assert from "node:assert/strict";
import { test } from "node:test";
import { ParleyServer, eventually } from "./server.js";

test("two users chat: handlers, the event iterator, typing and read receipts", async (t) => {
  const server = await ParleyServer.start();
  t.after(() => server.stop());
  const { client: alice, userId: aliceId } = await server.connected("alice");
  const { client: bob, userId: bobId } = await server.connected("bob");
  t.after(() => Promise.all([alice.disconnect(), bob.disconnect()]));
  assert.equal(bob.connectionState, "open");

  const heard = { received: [], typing: [], reads: [] };
  bob.addChannelHandler("screen", {
    onMessageReceived: (channel, message) => heard.received.push([channel.channel_url, message.message]),
    onTypingStatusUpdated: (channel, users) => heard.typing.push(users.map((u) => u.user_id)),
  });
  alice.addChannelHandler("screen", { onReadStatusUpdated: (channel, userId, ts) => heard.reads.push([userId, ts]) });
  const frames = bob.events();

  const channel = await alice.groupChannels.create({ user_ids: [aliceId, bobId], is_distinct: true });
  assert.equal((await alice.groupChannels.create({ user_ids: [aliceId, bobId], is_distinct: true })).channel_url, channel.channel_url);
  const sent = await alice.messages.sendUserMessage(channel.channel_url, { message: "Hi Bob!" });
  assert.ok(await eventually(() => heard.received.length === 1));
  assert.deepEqual(heard.received[0], [channel.channel_url, "Hi Bob!"]);
  for await (const frame of frames) {
    if (frame.type === "message_received") {
      assert.equal(frame.data.message_id, sent.message_id);
      break;
    }
  }

  alice.receipts.startTyping(channel.channel_url);
  assert.ok(await eventually(() => heard.typing.at(-1)?.[0] === aliceId));
  alice.receipts.endTyping(channel.channel_url);
  assert.ok(await eventually(() => heard.typing.at(-1)?.length === 0));

  assert.equal(await bob.receipts.unreadMessageCount(channel.channel_url), 1);
  await bob.receipts.markAsRead(channel.channel_url);
  assert.ok(await eventually(() => heard.reads.some(([userId]) => userId === bobId)));
  assert.equal(await bob.receipts.totalUnreadMessageCount(), 0);

  // History both ways, by time and by id.
  const second = await bob.messages.sendUserMessage(channel.channel_url, { message: "Hi Alice" });
  const newest = await alice.messages.list(channel.channel_url, { message_ts: Number.MAX_SAFE_INTEGER, prev_limit: 10 });
  assert.deepEqual(newest.map((m) => m.message), ["Hi Bob!", "Hi Alice"]);
  const older = await alice.messages.list(channel.channel_url, { message_id: second.message_id, prev_limit: 10, include: false });
  assert.deepEqual(older.map((m) => m.message_id), [sent.message_id]);
});

test("a refused call is a ParleyError with the server's code, and nothing changes", async (t) => {
  const server = await ParleyServer.start();
  t.after(() => server.stop());
  const { client: alice } = await server.connected("alice");
  t.after(() => alice.disconnect());
  await assert.rejects(alice.groupChannels.get("no-such-channel"), (error) => error.name === "ParleyError" && error.code === 400201 && error.status === 404);
  await assert.rejects(alice.messages.sendUserMessage("no-such-channel", { message: "x" }), { code: 400201 });
});
