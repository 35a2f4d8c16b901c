import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { ParleyServer, eventually } from "../../clients/js/test/server.js";
import { createServer } from "node:http";
import { deflateSync } from "node:zlib";
import { ChromeDriver } from "./webdriver.js";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Where screenshots go (docs/screenshots when refreshing the README's), else a temp folder. */
const shots = process.env.PARLEY_SCREENSHOTS_DIR ?? join(tmpdir(), "parley-screenshots");
mkdirSync(shots, { recursive: true });

async function signIn(browser, server, user) {
  await browser.go(`${server.baseUrl}/app/`);
  await browser.type("#user-id", user.userId);
  await browser.type("#session-token", user.token);
  await browser.click("#sign-in-button");
  await browser.waitFor("#me", { text: user.userId });
}

test("two users chat in two browsers: unread badges, typing, read receipts, edits, reactions, an upload, a reconnection", async (t) => {
  const server = await ParleyServer.start(undefined, { PARLEY_WEB_DIR: web });
  const driver = await ChromeDriver.start();
  t.after(async () => {
    driver.stop();
    await server.stop();
  });
  const alice = await server.user("alice");
  const bob = await server.user("bob");
  const a = await driver.browser();
  const b = await driver.browser();
  t.after(() => Promise.all([a.quit(), b.quit()]));

  // The page is served with a strict policy: no inline script, nothing from elsewhere.
  const page = await fetch(`${server.baseUrl}/app/`);
  assert.match(page.headers.get("content-security-policy"), /script-src 'self';/);
  assert.equal(page.headers.get("x-frame-options"), "DENY");

  await a.go(`${server.baseUrl}/app/`);
  writeFileSync(join(shots, "app-sign-in.png"), await a.screenshot());
  await signIn(a, server, alice);
  await signIn(b, server, bob);

  // Alice starts a chat with Bob and says hello; Bob's list shows it, unread.
  await a.type("#new-chat-users", bob.userId);
  await a.click("#new-chat button");
  await a.waitFor("#channel-name", { text: "Bob" });
  await a.type("#text", "Hello Bob");
  await a.click("#send");
  await a.waitFor("#messages .message.mine .body", { text: "Hello Bob" });
  await b.waitFor("#channel-list .badge", { text: "1" });

  // Bob opens it, types (Alice sees it), and answers; Alice's message shows it was read.
  await b.click("#channel-list li button");
  await b.waitFor("#messages .message .body", { text: "Hello Bob" });
  await b.type("#text", "Hi Alice");
  await a.waitFor("#typing", { text: "Bob is typing" });
  await b.click("#send");
  await a.waitFor("#messages .message .body", { text: "Hi Alice" });
  await a.waitFor("#messages .message.mine .read", { text: "Read" });
  await b.waitFor("#channel-list li:not(.selected) .badge, #channel-list li.selected", {});

  // Alice edits her message; Bob reacts to it.
  await a.click("#messages .message.mine .edit");
  await a.execute("document.getElementById('text').value = ''");
  await a.type("#text", "Hello Bob, edited");
  await a.click("#send");
  await b.waitFor("#messages .message .body", { text: "Hello Bob, edited" });
  await b.waitFor("#messages .message .edited");
  await b.click("#messages .message:not(.mine) .reaction");
  await a.waitFor("#messages .message.mine .reaction", { text: "👍 1" });

  // An upload: a picture, with its thumbnail on both sides.
  const png = join(tmpdir(), `parley-${Date.now()}.png`);
  writeFileSync(png, gradientPNG(480, 320));
  await a.execute("document.getElementById('file').hidden = false");
  await a.type("#file", png);
  await a.execute("document.getElementById('file').hidden = true");
  await a.waitFor("#messages .message.mine .body.file", { text: ".png" });
  await b.waitFor("#messages .message .thumbnail");
  const loaded = await b.execute("const img = document.querySelector('#messages .thumbnail'); return img.complete && img.naturalWidth > 0");
  assert.equal(loaded, true, "the thumbnail loads in the browser (its URL carries Bob's file auth key)");
  writeFileSync(join(shots, "app-chat.png"), await a.screenshot());

  // The server restarts: both reconnect by themselves, and what was sent meanwhile arrives.
  await server.kill();
  await a.waitFor("#connection", { text: "reconnecting" });
  await server.start();
  await a.waitFor("#connection[data-state='open']", { timeout: 20_000 });
  await b.waitFor("#connection[data-state='open']", { timeout: 20_000 });
  await b.type("#text", "Back again");
  await b.click("#send");
  await a.waitFor("#messages .message .body", { text: "Back again" });

  // Bob deletes his message: gone from Alice's screen too.
  await b.click("#messages .message.mine:last-of-type .delete");
  await b.click("#messages .message.mine:last-of-type .delete", { text: "Delete?" });
  assert.ok(await eventually(async () => !(await a.execute("return document.getElementById('messages').textContent")).includes("Back again")));
  // Reconnecting while the server was down, the browser logs the refused connections; nothing
  // else may fail.
  const unexpected = async (browser) => (await browser.consoleErrors()).filter((error) => !/WebSocket connection to .* failed: .*ERR_CONNECTION_REFUSED/.test(error));
  assert.deepEqual(await unexpected(a), []);
  assert.deepEqual(await unexpected(b), []);
});

test("an open channel, a link preview and a translation in the browser", async (t) => {
  // Stand-ins for the web page a message links to (on 127.0.0.2: links to the server's own host
  // get no preview) and for a LibreTranslate instance.
  const page = await listen("127.0.0.2", (request, response) => {
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(`<html><head><title>t</title><meta property="og:title" content="Otters hold hands"><meta property="og:description" content="So they do not drift apart while they sleep."></head></html>`);
  });
  const translator = await listen("127.0.0.1", (request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const { q, target } = JSON.parse(body);
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(JSON.stringify({ translatedText: q.map((text) => `[${target}] ${text}`) }));
    });
  });
  const server = await ParleyServer.start(undefined, {
    PARLEY_WEB_DIR: web,
    // The page a message links to: previews of links users post reach only hosts named for them.
    PARLEY_LINK_PREVIEW_ALLOW_HOSTS: `127.0.0.2:${page.address().port}`,
    PARLEY_TRANSLATION_PROVIDER: "libretranslate",
    PARLEY_TRANSLATION_URL: `http://127.0.0.1:${translator.address().port}`,
  });
  const driver = await ChromeDriver.start();
  t.after(async () => {
    driver.stop();
    await server.stop();
    page.close();
    translator.close();
  });
  const alice = await server.user("alice");
  const bob = await server.user("bob");
  const lobby = `lobby-${alice.userId}`;
  await server.admin("POST", "/v3/open_channels", { channel_url: lobby, name: "The lobby" });
  const a = await driver.browser();
  const b = await driver.browser();
  t.after(() => Promise.all([a.quit(), b.quit()]));
  await signIn(a, server, alice);
  await signIn(b, server, bob);

  // Both enter the open channel from its list; Alice's link gets a preview on both screens.
  for (const browser of [a, b]) {
    await browser.click("#tab-open");
    await browser.click("#channel-list li button", { text: "The lobby" });
    await browser.waitFor("#channel-info", { text: "open channel" });
  }
  assert.ok(await eventually(async () => (await server.admin("GET", `/v3/open_channels/${lobby}`)).participant_count === 2));
  await a.type("#text", `Did you know? http://127.0.0.2:${page.address().port}/otters`);
  await a.click("#send");
  await b.waitFor("#messages .message .body", { text: "Did you know?" });
  await b.waitFor("#messages .message .preview", { text: "Otters hold hands", timeout: 20_000 });
  await a.waitFor("#messages .message.mine .preview", { text: "So they do not drift apart" });

  // Bob translates it into his browser's language.
  await b.click("#messages .message:not(.mine) .translate");
  await b.waitFor("#messages .message .translations", { text: "[en] Did you know?" });
  writeFileSync(join(shots, "app-open-channel.png"), await b.screenshot());
  assert.deepEqual(await a.consoleErrors(), []);
  assert.deepEqual(await b.consoleErrors(), []);
});

/** A local HTTP server on a free port of `address`. */
function listen(address, handler) {
  return new Promise((resolve) => {
    const server = createServer(handler);
    server.listen(0, address, () => resolve(server));
  });
}

/** A `width`×`height` RGB picture (a colour gradient) as PNG bytes. */
function gradientPNG(width, height) {
  const rows = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x += 1) row.set([(x * 255) / width, (y * 255) / height, 200], 1 + x * 3);
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", header), chunk("IDAT", deflateSync(Buffer.concat(rows))), chunk("IEND", Buffer.alloc(0))]);
}

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}
