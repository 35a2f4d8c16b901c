import { page, segment, toPage, signedIn } from "../rest.js";

/** The field that carries each kind of token (API.md §12.1). */
const tokenFields = { apns: "apns_device_token", gcm: "gcm_reg_token", huawei: "huawei_device_token" };

/** Push notifications to the user when offline (API.md §12): device tokens, Web Push, preferences. */
export class PushAPI {
  constructor(client) {
    this.client = client;
  }


  /** Registers a device token: `type` is `apns`, `gcm` (FCM) or `huawei`. */
  async register(token, type) {
    const [rest, path] = signedIn(this.client);
    await rest.call("POST", `${path}/push/${type}`, { body: { [tokenFields[type]]: token } });
  }

  async unregister(token, type) {
    const [rest, path] = signedIn(this.client);
    await rest.call("DELETE", `${path}/push/${type}/${segment(token)}`);
  }

  /** The user's tokens of a kind (`apns`, `gcm`, `huawei`, `web`). */
  async tokens(type, options) {
    const [rest, path] = signedIn(this.client);
    return toPage(await rest.call("GET", `${path}/push/${type}`, { query: page(options) }), "tokens");
  }

  /** Removes every token of the user. */
  async unregisterAll() {
    const [rest, path] = signedIn(this.client);
    await rest.call("DELETE", `${path}/push`);
  }

  /** The server's VAPID public key (base64url), to subscribe a browser with. */
  async vapidPublicKey() {
    const body = await this.client.rest().call("GET", "/v3/push/web/vapid_public_key");
    return body.vapid_public_key;
  }

  /**
   * Subscribes this browser to Web Push with the server's VAPID key (through the service worker
   * registration the app gives) and registers the subscription; resolves to the subscription.
   */
  async subscribeWebPush(registration) {
    const key = await this.vapidPublicKey();
    const subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlBytes(key) }));
    const [rest, path] = signedIn(this.client);
    const json = typeof subscription.toJSON === "function" ? subscription.toJSON() : subscription;
    await rest.call("POST", `${path}/push/web`, { body: { web_push_subscription: json } });
    return subscription;
  }

  /** The user's settings: `push_trigger_option`, `do_not_disturb` with its window and `timezone`, snooze, sounds, `push_template`. */
  preference() {
    const [rest, path] = signedIn(this.client);
    return rest.call("GET", `${path}/push_preference`);
  }

  /** Changes the fields given; the whole preference after. */
  updatePreference(change) {
    const [rest, path] = signedIn(this.client);
    return rest.call("PUT", `${path}/push_preference`, { body: change });
  }

  async resetPreference() {
    const [rest, path] = signedIn(this.client);
    await rest.call("DELETE", `${path}/push_preference`);
  }

  channelPreference(channelUrl) {
    const [rest, path] = signedIn(this.client);
    return rest.call("GET", `${path}/push_preference/${segment(channelUrl)}`);
  }

  /** `preference`: `{ push_trigger_option: default | all | mention_only | off, push_sound }`. */
  updateChannelPreference(channelUrl, preference) {
    const [rest, path] = signedIn(this.client);
    return rest.call("PUT", `${path}/push_preference/${segment(channelUrl)}`, { body: preference });
  }

  /** Picks the template the user's pushes are written with: `default` or `alternative`. */
  async setTemplate(name) {
    const [rest, path] = signedIn(this.client);
    await rest.call("PUT", `${path}/push/template`, { body: { name } });
  }
}

/** A base64url string's bytes (the form `applicationServerKey` takes). */
function base64UrlBytes(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}
