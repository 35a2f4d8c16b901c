import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { ParleyServer, apiToken, eventually } from "../../clients/js/test/server.js";
import { createServer } from "node:http";
import { ChromeDriver } from "./webdriver.js";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const shots = process.env.PARLEY_SCREENSHOTS_DIR ?? join(tmpdir(), "parley-screenshots");
mkdirSync(shots, { recursive: true });

test("an operator resolves a report in the console, bans the reported user and deactivates them: their socket closes", async (t) => {
  // A webhook receiver (on 127.0.0.2, which the outbound guard lets through for this test).
  const received = [];
  const receiver = await new Promise((resolve) => {
    const hook = createServer((request, response) => {
      received.push(request.headers["webhook-id"]);
      request.resume();
      response.end("ok");
    });
    hook.listen(0, "127.0.0.2", () => resolve(hook));
  });
  const hookURL = `http://127.0.0.2:${receiver.address().port}/hook`;
  const server = await ParleyServer.start(undefined, { PARLEY_WEB_DIR: web, PARLEY_OUTBOUND_ALLOW_HOSTS: `127.0.0.2:${receiver.address().port}` });
  const driver = await ChromeDriver.start();
  t.after(async () => {
    driver.stop();
    await server.stop();
    receiver.close();
  });
  const alice = await server.user("alice");
  const bob = await server.user("bob");
  const { channel_url: url } = await server.admin("POST", "/v3/group_channels", { user_ids: [alice.userId, bob.userId], name: "Book club" });
  await server.admin("POST", `/v3/group_channels/${url}/messages`, { user_id: bob.userId, message: "buy cheap watches at spam.example" });
  const [a, b, operator] = [await driver.browser(), await driver.browser(), await driver.browser()];
  t.after(() => Promise.all([a, b, operator].map((browser) => browser.quit())));

  // Alice reports Bob's message from the chat app; Bob is signed in too.
  for (const [browser, user] of [[a, alice], [b, bob]]) {
    await browser.go(`${server.baseUrl}/app/`);
    await browser.type("#user-id", user.userId);
    await browser.type("#session-token", user.token);
    await browser.click("#sign-in-button");
    await browser.waitFor("#connection[data-state='open']");
  }
  await a.click("#channel-list li button");
  await a.click("#messages .message:not(.mine) .report");
  await a.waitFor("#status", { text: "Reported" });

  // The operator signs in with the API token (a wrong one first) and sees the report.
  await operator.go(`${server.baseUrl}/console/`);
  await operator.type("#api-token", "not-the-token-at-all");
  await operator.click("#sign-in-button");
  await operator.waitFor("#sign-in-error", { text: "not this server's API token" });
  await operator.execute("document.getElementById('api-token').value = ''");
  await operator.type("#api-token", apiToken);
  await operator.click("#sign-in-button");
  await operator.waitFor("#section table", { text: "buy cheap watches" });
  writeFileSync(join(shots, "console-reports.png"), await operator.screenshot());
  const stored = await operator.execute("return JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, url: location.href, cookies: document.cookie })");
  assert.ok(!stored.includes(apiToken), "the API token is in no storage, cookie or URL");

  // Ban in the channel: the report is resolved and Bob is out of the channel.
  await operator.click("#section .actions .ban");
  await operator.waitFor("#status", { text: `Ban ${bob.userId}: done` });
  const report = (await server.admin("GET", "/v3/report?status=resolved")).report_logs[0];
  assert.equal(report.resolution, `banned from ${url}`);
  assert.deepEqual((await server.admin("GET", `/v3/group_channels/${url}/ban`)).banned_list.map((ban) => ban.user.user_id), [bob.userId]);

  // Deactivate Bob: his socket closes and his app says so.
  await operator.click("[data-section='users']");
  await operator.type("#user-search input[name='user_ids']", bob.userId);
  await operator.click("#user-search button");
  await operator.waitFor(`[data-user-id='${bob.userId}'] button`, { text: "Deactivate" });
  writeFileSync(join(shots, "console-users.png"), await operator.screenshot());
  await operator.click(`[data-user-id='${bob.userId}'] button`, { text: "Deactivate" });
  await operator.waitFor("#status", { text: "done" });
  await b.waitFor("#connection[data-state='closed']", { timeout: 10_000 });
  await b.waitFor("#connection", { text: "signed out" });

  // Channels: the ban is listed and lifted; an admin message reaches Alice's screen.
  await operator.click("[data-section='channels']");
  await operator.waitFor("#section table", { text: "Book club" });
  await operator.click(`[data-channel-url='${url}'] button`, { text: "Bans" });
  await operator.waitFor("#restrictions", { text: bob.userId });
  writeFileSync(join(shots, "console-channels.png"), await operator.screenshot());
  await operator.click("#restrictions button", { text: "Unban" });
  await operator.waitFor("#status", { text: `Unban ${bob.userId}: done` });
  assert.deepEqual((await server.admin("GET", `/v3/group_channels/${url}/ban`)).banned_list, []);
  await operator.type(`[id='admin-message-${url}'] input`, "Please keep it civil.");
  await operator.click(`[id='admin-message-${url}'] button`);
  await a.waitFor("#messages .message.admin", { text: "Please keep it civil." });
  // The audit log (the ban is in it), webhooks, live figures.
  await operator.click("[data-section='audit']");
  await operator.waitFor("#section table", { text: bob.userId });
  // The webhook, set in the console; an event is delivered, and redelivered from the log.
  await operator.click("[data-section='webhooks']");
  await operator.waitFor("#section h2", { text: "Webhook" });
  await operator.type("#webhook-settings input[name='url']", hookURL);
  await operator.type("#webhook-settings input[name='enabled_events']", "*");
  await operator.click("#webhook-settings button");
  await operator.waitFor("#section p", { text: `Sending to ${hookURL}` });
  await server.admin("POST", `/v3/group_channels/${url}/messages`, { user_id: alice.userId, message: "for the webhook" });
  assert.ok(await eventually(() => received.length >= 1, 15));
  await operator.click("[data-section='webhooks']");
  await operator.waitFor("#section table", { text: "delivered" });
  writeFileSync(join(shots, "console-webhooks.png"), await operator.screenshot());
  // Other events (Alice's browser reading the message) may arrive meanwhile: the redelivery is
  // the arrival that repeats a webhook-id the receiver already had.
  const earlier = received.slice();
  await operator.click("#section [data-delivery-id] button");
  const repeated = () => received.slice(earlier.length).some((id) => earlier.includes(id));
  assert.ok(await eventually(repeated, 15), "the redelivery reached the receiver with a webhook-id it had before");
  // Freeze the channel from the console; revoke Alice's tokens: her socket closes too.
  await operator.click("[data-section='channels']");
  await operator.click(`[data-channel-url='${url}'] button`, { text: "Freeze" });
  await operator.waitFor(`[data-channel-url='${url}'] button`, { text: "Unfreeze" });
  assert.equal((await server.admin("GET", `/v3/group_channels/${url}`)).freeze, true);
  await operator.click("[data-section='users']");
  await operator.type("#user-search input[name='user_ids']", alice.userId);
  await operator.click("#user-search button");
  await operator.click(`[data-user-id='${alice.userId}'] button`, { text: "Revoke tokens" });
  await a.waitFor("#connection", { text: "signed out" });
  await operator.click("[data-section='audit']");
  await operator.waitFor("#section table", { text: "freeze" });
  writeFileSync(join(shots, "console-audit.png"), await operator.screenshot());
  await operator.click("[data-section='figures']");
  await operator.waitFor("#figures table", { text: "Open event-stream sockets" });
  writeFileSync(join(shots, "console-figures.png"), await operator.screenshot());
  for (const browser of [a, b]) assert.deepEqual(await browser.consoleErrors(), []);
  // The browser logs the wrong token's 401 as a failed load; nothing else may fail.
  const operatorErrors = (await operator.consoleErrors()).filter((error) => !error.includes("/v3/users?limit=1 - Failed to load resource: the server responded with a status of 401"));
  assert.deepEqual(operatorErrors, []);
});
