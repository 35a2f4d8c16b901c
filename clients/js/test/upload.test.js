import assert from "node:assert/strict";
import { test } from "node:test";
import { ParleyServer } from "./server.js";

test("an upload reports its progress and arrives; a cancelled one sends nothing", async (t) => {
  const server = await ParleyServer.start();
  t.after(() => server.stop());
  const { client: alice, userId: aliceId } = await server.connected("alice");
  t.after(() => alice.disconnect());
  const { channel_url: url } = await alice.groupChannels.create({ user_ids: [aliceId] });
  const bytes = new Uint8Array(1_000_000).map((_, i) => i % 251);
  const progress = [];
  const message = await alice.messages.sendFileMessage(url, { file: bytes, file_name: "data.bin", file_type: "application/octet-stream" }, {
    onProgress: (sent, total) => progress.push([sent, total]),
  });
  assert.equal(message.type, "FILE");
  assert.equal(message.file.name, "data.bin");
  assert.equal(message.file.size, bytes.length);
  assert.ok(progress.length > 10, `${progress.length} reports`);
  const [sent, total] = progress.at(-1);
  assert.ok(sent === total && total > bytes.length);
  assert.deepEqual(progress.map(([s]) => s), progress.map(([s]) => s).sort((a, b) => a - b));
  // The file comes back as sent, through the URL that carries the reader's own auth key.
  const download = await fetch(message.file.url.startsWith("http") ? message.file.url : server.baseUrl + message.file.url);
  assert.equal(download.status, 200);
  assert.deepEqual(new Uint8Array(await download.arrayBuffer()), bytes);

  const controller = new AbortController();
  const cancelled = alice.messages.sendFileMessage(url, { file: new Blob([new Uint8Array(5_000_000)]), file_name: "big.bin" }, {
    signal: controller.signal,
    onProgress: (done) => done > 1_000_000 && controller.abort(),
  });
  await assert.rejects(cancelled, { name: "ParleyError", status: 0 });
  const history = await alice.messages.list(url, { message_ts: Number.MAX_SAFE_INTEGER, prev_limit: 10 });
  assert.deepEqual(history.map((m) => m.message_id), [message.message_id]);

  // A picture gets its thumbnails.
  const png = tinyPNG();
  const picture = await alice.messages.sendFileMessage(url, { file: new Blob([png], { type: "image/png" }), file_name: "dot.png", thumbnail_sizes: [[16, 16]] });
  assert.equal(picture.thumbnails?.length, 1);
});

/** A valid 2×2 PNG. */
function tinyPNG() {
  return Uint8Array.from(
    atob("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg=="),
    (c) => c.charCodeAt(0),
  );
}
