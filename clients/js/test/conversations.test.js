import assert from "node:assert/strict";
import { test } from "node:test";
import { ParleyServer } from "./server.js";

test("threads, pins, polls, scheduled messages, search and counters", async (t) => {
  const server = await ParleyServer.start();
  t.after(() => server.stop());
  const { client: alice, userId: aliceId } = await server.connected("alice");
  const { client: bob, userId: bobId } = await server.connected("bob");
  t.after(() => Promise.all([alice.disconnect(), bob.disconnect()]));
  const { channel_url: url } = await alice.groupChannels.create({ user_ids: [aliceId, bobId], operator_ids: [aliceId] });
  const word = `zebra${Math.floor(Math.random() * 900_000 + 100_000)}`;

  const parent = await alice.messages.sendUserMessage(url, { message: `parent ${word}` });
  await bob.messages.sendUserMessage(url, { message: "a reply", parent_message_id: parent.message_id });
  const thread = await alice.conversations.thread(url, parent.message_id, { message_ts: 0, next_limit: 10, include_parent_message_info: true });
  assert.deepEqual(thread.messages.map((m) => m.message), ["a reply"]);
  assert.equal(thread.messages[0].parent_message_info.message, parent.message);
  assert.equal((await alice.messages.get(url, parent.message_id)).thread_info.reply_count, 1);

  await alice.conversations.pin(url, parent.message_id);
  assert.deepEqual((await bob.conversations.pinnedMessages(url)).items.map((m) => m.message_id), [parent.message_id]);
  await alice.conversations.unpin(url, parent.message_id);

  const poll = await alice.conversations.createPoll({ title: "Lunch?", options: ["pizza", "sushi", "soup"], allow_user_suggestion: true });
  await alice.messages.sendUserMessage(url, { message: "vote!", poll_id: poll.id });
  assert.deepEqual((await bob.conversations.polls(url)).items.map((p) => p.id), [poll.id]);
  const sushi = poll.options[1].id;
  assert.deepEqual((await bob.conversations.vote(poll.id, [sushi])).options.map((o) => o.vote_count), [0, 1, 0]);
  assert.deepEqual((await alice.conversations.voters(poll.id, sushi)).items.map((u) => u.user_id), [bobId]);
  const suggested = await bob.conversations.addPollOption(poll.id, "salad");
  const salad = suggested.options.find((o) => o.text === "salad");
  await assert.rejects(bob.conversations.updatePollOption(poll.id, salad.id, "mine"), { status: 403 });
  await alice.conversations.updatePollOption(poll.id, salad.id, "green salad");
  assert.equal((await alice.conversations.pollOption(poll.id, salad.id)).text, "green salad");
  assert.equal((await alice.conversations.updatePoll(poll.id, { title: "Lunch today?" })).title, "Lunch today?");
  await alice.conversations.deletePollOption(poll.id, poll.options[2].id);
  assert.equal((await alice.conversations.closePoll(poll.id)).status, "closed");
  await alice.conversations.deletePoll(poll.id);
  await assert.rejects(alice.conversations.poll(poll.id), { status: 404 });

  const inAnHour = Date.now() + 3_600_000;
  const later = await alice.conversations.schedule(url, { message: "draft" }, inAnHour);
  assert.equal((await alice.conversations.updateScheduled(url, later.scheduled_message_id, { message: "final" })).message, "final");
  const file = await alice.conversations.scheduleFile(url, { file: new Uint8Array(1000), file_name: "later.bin" }, inAnHour);
  assert.equal(file.type, "FILE");
  assert.equal(await alice.conversations.scheduledMessageCount({ status: ["pending"] }), 2);
  assert.equal((await alice.conversations.cancelScheduled(url, later.scheduled_message_id)).status, "canceled");
  const sent = await alice.conversations.sendScheduledNow(url, file.scheduled_message_id);
  assert.equal((await alice.messages.get(url, sent.message_id)).file.name, "later.bin");
  assert.deepEqual((await alice.conversations.scheduledMessages({ channel_url: url, status: ["canceled"] })).items.map((s) => s.message), ["final"]);

  assert.deepEqual((await bob.conversations.searchMessages(word)).items.map((m) => m.message_id), [parent.message_id]);
  assert.deepEqual((await bob.conversations.searchMessages({ query: word, sender_id: bobId })).items, []);
  assert.equal(await alice.conversations.increase(url, "likes", 3), 3);
  assert.equal(await alice.conversations.increase(url, "likes", -1), 2);
  await assert.rejects(bob.conversations.increase(url, "likes", 1), { status: 403 });
  assert.deepEqual(await bob.conversations.metacounters(url), { likes: 2 });
  await alice.conversations.deleteCounter(url, "likes");
  assert.deepEqual(await bob.conversations.metacounters(url), {});
});
