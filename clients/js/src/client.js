import { EventConnection, defaultSettings } from "./connection.js";
import { SessionCredentials } from "./credentials.js";
import { EventDispatcher } from "./dispatcher.js";
import { ParleyError } from "./errors.js";
import { RestClient } from "./rest.js";
import { GroupChannelAPI } from "./api/group-channels.js";
import { MessageAPI } from "./api/messages.js";
import { ReceiptAPI } from "./api/receipts.js";
import { OpenChannelAPI } from "./api/open-channels.js";
import { ModerationAPI } from "./api/moderation.js";
import { PushAPI } from "./api/push.js";
import { ConversationAPI } from "./api/conversations.js";
import { UserAPI } from "./api/users.js";

/**
 * One signed-in user's Parley: REST calls as that user (grouped: `groupChannels`, `messages`,
 * `receipts`, `openChannels`, `moderation`, `push`, `conversations`, `users`) and the event
 * stream, kept open, heard through handlers, `onEvent` or `events()`.
 */
export class ParleyClient {
  /**
   * @param baseUrl the server, as the app reaches it (`https://chat.example.com`).
   * @param options `settings` (ConnectionSettings), `WebSocket` and `fetch` (defaults: the
   *   global ones; Node 20 has a global WebSocket with `--experimental-websocket`).
   */
  constructor(baseUrl, options = {}) {
    this.baseUrl = String(baseUrl).replace(/\/+$/, "");
    this.settings = { ...defaultSettings, ...options.settings };
    this.WebSocketImpl = options.WebSocket ?? globalThis.WebSocket;
    this.fetchImpl = options.fetch;
    this.dispatcher = new EventDispatcher();
    this.session = null;
    this.lastPosition = null;
    this.onlineListener = null;
    this.groupChannels = new GroupChannelAPI(this);
    this.messages = new MessageAPI(this);
    this.receipts = new ReceiptAPI(this);
    this.openChannels = new OpenChannelAPI(this);
    this.moderation = new ModerationAPI(this);
    this.push = new PushAPI(this);
    this.conversations = new ConversationAPI(this);
    this.users = new UserAPI(this);
  }

  /**
   * Signs `userId` in with a session token from the app's backend and opens the event stream;
   * resolves once it is open. `tokenProvider(userId)` is asked for a new token when the server
   * refuses the current one (expired, revoked). Connecting the same user again resumes the
   * stream after the last event handled.
   */
  async connect(userId, sessionToken, tokenProvider) {
    if (!this.WebSocketImpl) {
      throw new ParleyError(0, 0, "No WebSocket here: pass one as options.WebSocket (on Node 20, run with --experimental-websocket).");
    }
    await this.disconnect();
    const credentials = new SessionCredentials(userId, sessionToken, tokenProvider);
    const rest = new RestClient(this.baseUrl, credentials, this.fetchImpl);
    const resume = this.lastPosition?.userId === userId ? this.lastPosition : null;
    const eventsUrl = this.baseUrl.replace(/^http/, "ws") + "/v3/events";
    const connection = new EventConnection({
      eventsUrl, credentials, rest, dispatcher: this.dispatcher, settings: this.settings, WebSocketImpl: this.WebSocketImpl, position: resume,
    });
    this.session = { userId, credentials, rest, connection };
    const opened = this.waitForOpen();
    connection.start();
    this.watchNetwork(connection);
    try {
      await opened;
    } catch (error) {
      await this.disconnect();
      throw error;
    }
  }

  /** Closes the event stream; REST calls stop working until `connect`. */
  async disconnect() {
    const session = this.session;
    if (!session) return;
    this.session = null;
    this.unwatchNetwork();
    await session.connection.stop();
    this.lastPosition = { userId: session.userId, ...session.connection.position };
  }

  setTokenProvider(provider) {
    if (this.session) this.session.credentials.provider = provider;
  }

  get currentUserId() {
    return this.session?.userId ?? null;
  }

  /** `connecting`, `open`, `reconnecting` or `closed`. */
  get connectionState() {
    return this.dispatcher.state;
  }

  /** Calls `listener(state, reason)` with the current state, then each change; returns a stop function. */
  onConnectionState(listener) {
    return this.dispatcher.onState(listener);
  }

  /** Every frame of the event stream from now on, in order (events each once). */
  onEvent(listener) {
    return this.dispatcher.onEvent(listener);
  }

  /** The frames from now on, as an async iterator. */
  events() {
    return this.dispatcher.events();
  }

  addChannelHandler(id, handler) {
    this.dispatcher.addChannelHandler(id, handler);
  }

  addConnectionHandler(id, handler) {
    this.dispatcher.addConnectionHandler(id, handler);
  }

  removeHandler(id) {
    this.dispatcher.removeHandler(id);
  }

  /** The network is usable again (ParleyKit's reachability): reconnect now, not after the backoff. */
  networkBecameAvailable() {
    this.session?.connection.networkBecameAvailable();
  }

  rest() {
    if (!this.session) throw ParleyError.notConnected();
    return this.session.rest;
  }

  connection() {
    if (!this.session) throw ParleyError.notConnected();
    return this.session.connection;
  }

  /** Resolves when the stream opens; rejects when it closes for good or takes too long. */
  waitForOpen() {
    return new Promise((resolve, reject) => {
      let stop = () => {};
      const timer = setTimeout(() => {
        stop();
        reject(new ParleyError(0, 0, `The event stream did not open within ${this.settings.connectTimeout} s.`));
      }, this.settings.connectTimeout * 1000);
      let first = true;
      stop = this.dispatcher.onState((state, reason) => {
        // The state before this connection's first is the last connection's.
        if (first) {
          first = false;
          return;
        }
        if (state === "open") {
          clearTimeout(timer);
          stop();
          resolve();
        } else if (state === "closed") {
          clearTimeout(timer);
          stop();
          reject(new ParleyError(0, reason === "unauthorized" ? 401 : 0, `The event stream closed: ${reason}.`));
        }
      });
    });
  }

  /** In a browser, the `online` event ends a reconnection's backoff at once. */
  watchNetwork(connection) {
    if (typeof globalThis.addEventListener !== "function" || typeof globalThis.navigator?.onLine !== "boolean") return;
    this.onlineListener = () => connection.networkBecameAvailable();
    globalThis.addEventListener("online", this.onlineListener);
  }

  unwatchNetwork() {
    if (this.onlineListener) globalThis.removeEventListener("online", this.onlineListener);
    this.onlineListener = null;
  }
}
