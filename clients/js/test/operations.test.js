import assert from "node:assert/strict";
import { test } from "node:test";
import { ParleyClient } from "../src/index.js";
import { ParleyServer, eventually } from "./server.js";

test("group channel operations", async (t) => {
  const server = await ParleyServer.start();
  t.after(() => server.stop());
  const { client: alice, userId: aliceId } = await server.connected("alice");
  const { client: bob, userId: bobId } = await server.connected("bob");
  const carolUser = await server.user("carol");
  await server.admin("PUT", `/v3/users/${carolUser.userId}/channel_invitation_preference`, { auto_accept: false });
  const carolId = carolUser.userId;
  const carol = new ParleyClient(server.baseUrl);
  await carol.connect(carolId, carolUser.token);
  t.after(() => Promise.all([alice, bob, carol].map((c) => c.disconnect())));

  const team = await alice.groupChannels.create({ user_ids: [aliceId], name: "Team", is_public: true, custom_type: "team", operator_ids: [aliceId] });
  const url = team.channel_url;
  assert.ok(team.is_public && team.name === "Team");
  await bob.groupChannels.join(url);
  await alice.groupChannels.invite(url, [carolId]);
  assert.equal((await carol.groupChannels.get(url)).member_state, "invited");
  assert.equal((await carol.groupChannels.acceptInvitation(url)).member_state, "joined");
  assert.deepEqual(new Set((await alice.groupChannels.members(url, { limit: 10 })).items.map((m) => m.user_id)), new Set([aliceId, bobId, carolId]));
  await alice.groupChannels.addOperators(url, [bobId]);
  assert.deepEqual(new Set((await alice.groupChannels.operators(url)).items.map((u) => u.user_id)), new Set([aliceId, bobId]));
  await bob.groupChannels.removeOperators(url, [bobId]);
  const renamed = await alice.groupChannels.update(url, { name: "Team 2", data: "d" });
  assert.equal(renamed.name, "Team 2");
  assert.equal((await alice.groupChannels.setFrozen(url, true)).freeze, true);
  await assert.rejects(bob.messages.sendUserMessage(url, { message: "frozen" }), { code: 900050 });
  await alice.groupChannels.setFrozen(url, false);
  await alice.messages.sendUserMessage(url, { message: "hello" });
  await bob.groupChannels.hide(url);
  assert.deepEqual((await bob.groupChannels.myChannels({ hidden_mode: "hidden_only" })).items.map((c) => c.channel_url), [url]);
  await bob.groupChannels.unhide(url);
  await bob.groupChannels.resetHistory(url);
  assert.deepEqual(await bob.messages.list(url, { message_ts: Number.MAX_SAFE_INTEGER, prev_limit: 10 }), []);
  await carol.groupChannels.leave(url);
  assert.equal((await alice.groupChannels.get(url)).member_count, 2);
  assert.deepEqual((await alice.groupChannels.myChannels({ custom_types: ["team"], name_contains: "team" })).items.map((c) => c.channel_url), [url]);
  const other = await alice.groupChannels.create({ user_ids: [aliceId, carolId], operator_ids: [aliceId] });
  await carol.groupChannels.declineInvitation(other.channel_url);
  await alice.groupChannels.delete(other.channel_url);
  await assert.rejects(alice.groupChannels.get(other.channel_url), { code: 400201 });
  const log = await alice.groupChannels.changelogs({ changeTs: Date.now() - 60_000 });
  assert.ok(log.updated.some((c) => c.channel_url === url));
});

test("messages: edits, reactions, meta arrays, translation requests, mentions", async (t) => {
  const server = await ParleyServer.start();
  t.after(() => server.stop());
  const { client: alice, userId: aliceId } = await server.connected("alice");
  const { client: bob, userId: bobId } = await server.connected("bob");
  t.after(() => Promise.all([alice.disconnect(), bob.disconnect()]));
  const { channel_url: url } = await alice.groupChannels.create({ user_ids: [aliceId, bobId] });
  const reactions = [];
  alice.addChannelHandler("test", { onReactionUpdated: (_, change) => reactions.push(change.operation) });
  const sent = await alice.messages.sendUserMessage(url, { message: "hi @bob", mentioned_user_ids: [bobId], custom_type: "greeting" });
  assert.deepEqual(sent.mentioned_users.map((u) => u.user_id), [bobId]);
  // The same dedup id again: the first message back, not a second one.
  const again = await alice.messages.sendUserMessage(url, { message: "hi @bob", dedup_id: sent.dedup_id });
  assert.equal(again.message_id, sent.message_id);
  assert.equal((await alice.messages.update(url, sent.message_id, { message: "hi Bob" })).message, "hi Bob");
  await bob.messages.addReaction(url, sent.message_id, "eyes");
  await bob.messages.removeReaction(url, sent.message_id, "eyes");
  assert.ok(await eventually(() => reactions.join() === "add,delete"));
  const made = await alice.messages.createMetaArrayKeys(url, sent.message_id, [{ key: "tags", value: ["a"] }]);
  assert.deepEqual(made.sorted_metaarray, [{ key: "tags", value: ["a"] }]);
  assert.deepEqual((await alice.messages.addMetaArrayValues(url, sent.message_id, [{ key: "tags", value: ["b"] }])).sorted_metaarray, [{ key: "tags", value: ["a", "b"] }]);
  assert.deepEqual((await alice.messages.removeMetaArrayValues(url, sent.message_id, [{ key: "tags", value: ["a"] }])).sorted_metaarray, [{ key: "tags", value: ["b"] }]);
  assert.deepEqual((await alice.messages.deleteMetaArrayKeys(url, sent.message_id, ["tags"])).sorted_metaarray ?? [], []);
  // No translation provider here: the server says so with its own error.
  await assert.rejects(alice.messages.translate(url, sent.message_id, ["de"]), (error) => error.name === "ParleyError" && error.status >= 400);
  await alice.messages.delete(url, sent.message_id);
  const log = await alice.messages.changelogs(url, { changeTs: Date.now() - 60_000 });
  assert.deepEqual(log.deleted, [sent.message_id]);
  await bob.receipts.markAsDelivered(url);
  await bob.receipts.markAllAsRead();
  assert.equal(await bob.receipts.unreadChannelCount(), 0);
});

test("open channels, moderation, push and the user's settings", async (t) => {
  const server = await ParleyServer.start();
  t.after(() => server.stop());
  const { client: alice, userId: aliceId } = await server.connected("alice");
  const { client: bob, userId: bobId } = await server.connected("bob");
  t.after(() => Promise.all([alice.disconnect(), bob.disconnect()]));
  const club = await alice.openChannels.create({ name: `Club ${aliceId}`, custom_type: "club", operator_ids: [aliceId] });
  const lobby = club.channel_url;
  assert.deepEqual((await bob.openChannels.list({ name_contains: `Club ${aliceId}` })).items.map((c) => c.channel_url), [lobby]);
  const heard = [];
  bob.addChannelHandler("test", { onMessageReceived: (channel, message) => heard.push([channel.channel_type, message.message]) });
  await alice.openChannels.enter(lobby);
  await bob.openChannels.enter(lobby);
  assert.deepEqual(new Set((await bob.openChannels.participants(lobby)).items.map((u) => u.user_id)), new Set([aliceId, bobId]));
  await alice.messages.sendUserMessage(lobby, { message: "hi all" }, { channelType: "open" });
  assert.ok(await eventually(() => heard.some(([type, text]) => type === "open" && text === "hi all")));
  await bob.openChannels.exit(lobby);
  assert.deepEqual((await alice.openChannels.participants(lobby)).items.map((u) => u.user_id), [aliceId]);
  assert.equal((await alice.openChannels.update(lobby, { name: "Reading club" })).name, "Reading club");
  await alice.users.updateChannelMetadata(lobby, { genre: "poetry" }, { channelType: "open" });
  assert.deepEqual(await bob.users.channelMetadata(lobby, { channelType: "open" }), { genre: "poetry" });

  // Blocks, reports, bans and mutes.
  await alice.moderation.block(bobId);
  assert.deepEqual((await alice.moderation.blockedUsers()).items.map((u) => u.user_id), [bobId]);
  await alice.moderation.unblock(bobId);
  await alice.moderation.reportUser(bobId, "spam", "ads");
  const { channel_url: url } = await alice.groupChannels.create({ user_ids: [aliceId, bobId], operator_ids: [aliceId] });
  await alice.moderation.mute(url, bobId, { seconds: 60, description: "calm down" });
  assert.deepEqual((await alice.moderation.mutedUsers(url)).items.map((r) => r.user.user_id), [bobId]);
  await assert.rejects(bob.messages.sendUserMessage(url, { message: "muted" }), { code: 900041 });
  await alice.moderation.unmute(url, bobId);
  await alice.moderation.ban(url, bobId);
  assert.deepEqual((await alice.moderation.bannedUsers(url)).items.map((r) => r.user.user_id), [bobId]);
  await alice.moderation.unban(url, bobId);
  assert.equal((await server.admin("GET", "/v3/report")).report_logs.length, 1);

  // Push tokens and preferences.
  const apns = "ab".repeat(32);
  await alice.push.register(apns, "apns");
  assert.deepEqual((await alice.push.tokens("apns")).items, [apns]);
  await alice.push.unregisterAll();
  assert.deepEqual((await alice.push.tokens("apns")).items, []);
  const saved = await alice.push.updatePreference({ push_trigger_option: "mention_only", do_not_disturb: true, start_hour: 22, start_min: 0, end_hour: 7, end_min: 0, timezone: "Asia/Seoul" });
  assert.equal(saved.push_trigger_option, "mention_only");
  assert.equal((await alice.push.updateChannelPreference(url, { push_trigger_option: "off" })).push_trigger_option, "off");
  await alice.push.setTemplate("alternative");
  assert.equal((await alice.push.preference()).push_template, "alternative");

  // Profile, metadata, invitation preference.
  assert.equal((await alice.users.updateProfile({ nickname: "Alice A." })).nickname, "Alice A.");
  await alice.users.updateMyMetadata({ home_city: "Seoul", team: "blue" });
  await alice.users.deleteMyMetadata("team");
  assert.deepEqual(await alice.users.myMetadata(), { home_city: "Seoul" });
  await alice.users.setChannelInvitationPreference(false);
  assert.equal(await alice.users.channelInvitationPreference(), false);
});
