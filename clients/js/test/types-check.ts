// Type-checked by the tests (`tsc --noEmit`, test/types.test.js): the declarations are valid and
// describe the README's first lines and a chat screen.
import { MessageCollection, ParleyClient, ParleyError, type Message } from "../index.js";

async function firstLines(tokenFromYourBackend: string): Promise<void> {
  const parley = new ParleyClient("https://chat.example.com");
  await parley.connect("alice", tokenFromYourBackend, async (userId) => `${userId}-fresh`);
  parley.addChannelHandler("inbox", {
    onMessageReceived: (channel, message: Message) => console.log(channel.channel_url, message.user?.nickname ?? "admin", message.message),
    onTypingStatusUpdated: (_, users) => console.log(users.map((u) => u.user_id)),
  });
  const channel = await parley.groupChannels.create({ user_ids: ["alice", "bob"], is_distinct: true });
  await parley.messages.sendUserMessage(channel.channel_url, { message: "Hi Bob!" });

  const collection = new MessageCollection(parley, channel.channel_url, {
    onChange: (change) => {
      if (change.type === "added") console.log(change.messages.length);
      if (change.type === "pending" && change.pending.failure?.isRetryable) console.log("retry?", change.pending.id);
    },
  });
  await collection.start();
  const file = await collection.sendFile({ file: new Blob(["hi"]), file_name: "hi.txt" }, { onProgress: (sent, total) => console.log(sent / total) });
  console.log(file.file?.size, collection.hasPrevious);
  for await (const frame of parley.events()) {
    if (frame.type === "message_received") break;
  }
  try {
    await parley.conversations.vote(1, [2]);
  } catch (error) {
    if (error instanceof ParleyError && error.code === 400201) console.log("gone");
  }
  const page = await parley.groupChannels.myChannels({ order: "latest_last_message", limit: 10 });
  console.log(page.items.map((c) => c.unread_message_count), page.hasMore);
}

void firstLines;
