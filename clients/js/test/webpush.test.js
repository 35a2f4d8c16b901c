import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createECDH, randomBytes, randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { ParleyServer } from "./server.js";

test("Web Push: the browser subscribes with the server's VAPID key and the subscription is registered", async (t) => {
  const keyFile = join(tmpdir(), `vapid-${randomUUID()}.pem`);
  writeFileSync(keyFile, execFileSync("openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout"]));
  const server = await ParleyServer.start(undefined, { PARLEY_VAPID_PRIVATE_KEY_FILE: keyFile, PARLEY_VAPID_SUBJECT: "mailto:ops@example.com" });
  t.after(() => server.stop());
  const { client: alice } = await server.connected("alice");
  t.after(() => alice.disconnect());
  const serverKey = await alice.push.vapidPublicKey();

  // The browser's side (a service worker registration's push manager), as the SDK drives it.
  const browserKey = createECDH("prime256v1");
  browserKey.generateKeys();
  const endpoint = `https://updates.push.services.mozilla.com/wpush/v2/${randomUUID()}`;
  let subscribedWith = null;
  const registration = {
    pushManager: {
      getSubscription: async () => null,
      subscribe: async (options) => {
        subscribedWith = options;
        return { toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: browserKey.getPublicKey("base64url"), auth: randomBytes(16).toString("base64url") } }) };
      },
    },
  };
  await alice.push.subscribeWebPush(registration);
  assert.equal(subscribedWith.userVisibleOnly, true);
  assert.equal(Buffer.from(subscribedWith.applicationServerKey).toString("base64url"), serverKey);
  assert.equal(subscribedWith.applicationServerKey.length, 65);
  assert.deepEqual((await alice.push.tokens("web")).items, [endpoint]);
  await alice.push.unregister(endpoint, "web");
  assert.deepEqual((await alice.push.tokens("web")).items, []);
});
