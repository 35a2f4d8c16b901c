import { ParleyError } from "./errors.js";
import { segment } from "./rest.js";

/** How the event stream reconnects (EVENTS.md §8); the defaults are the protocol's. */
export const defaultSettings = Object.freeze({
  /** The first reconnection waits up to this long (s), doubling to `maximumBackoff`. */
  initialBackoff: 1,
  maximumBackoff: 30,
  /** A connection up this long resets the backoff (s). */
  stableAfter: 10,
  /** `connect` gives up when the stream has not opened this long after it was called (s). */
  connectTimeout: 15,
});

/**
 * The event stream of docs/EVENTS.md, kept open. Browsers cannot set headers on a WebSocket, so
 * the token goes in the first frame (never in the URL), with `after`. Reconnects after any drop
 * (full-jitter backoff), skips what it has handled, renews a refused token (4001) through the
 * app's provider, stops on 4008, catches up over the channel changelog after `resync_required`,
 * and enters again the open channels the user was in. Frames are handled one at a time, in order.
 */
export class EventConnection {
  constructor({ eventsUrl, credentials, rest, dispatcher, settings, WebSocketImpl, position }) {
    Object.assign(this, { eventsUrl, credentials, rest, dispatcher, settings, WebSocketImpl });
    /** The last event handled: the stream resumes after it. */
    this.cursor = position?.cursor ?? null;
    /** When it happened (ms, the server's clock): a catch-up starts there. */
    this.lastEventTs = position?.lastEventTs ?? null;
    this.helloLastEventId = null;
    this.hasOpened = false;
    this.refusedInARow = 0;
    this.enteredOpenChannels = new Set();
    this.socket = null;
    this.stopped = false;
    this.wakeBackoff = null;
    this.handling = Promise.resolve();
  }

  get position() {
    return { cursor: this.cursor, lastEventTs: this.lastEventTs };
  }

  start() {
    this.loop = this.run();
  }

  async stop() {
    this.stopped = true;
    this.socket?.close(1000);
    this.wakeBackoff?.(false);
    await this.loop;
  }

  /** The network is back: a reconnection waiting out its backoff tries now. */
  networkBecameAvailable() {
    this.wakeBackoff?.(true);
  }

  noteEntered(channelUrl, entered) {
    if (entered) this.enteredOpenChannels.add(channelUrl);
    else this.enteredOpenChannels.delete(channelUrl);
  }

  /** Sends a client frame (typing, enter, exit) on the open socket. */
  send(frame) {
    if (!this.socket || this.socket.readyState !== 1) throw new ParleyError(0, 0, "The event stream is not open.");
    this.socket.send(JSON.stringify(frame));
  }

  async run() {
    const userId = this.credentials.userId;
    let delay = this.settings.initialBackoff;
    let attempt = 0;
    while (!this.stopped) {
      this.dispatcher.dispatchState(attempt === 0 ? "connecting" : "reconnecting", userId);
      const token = this.credentials.token;
      const openedAt = Date.now();
      const code = await this.connectOnce(token);
      await this.handling;
      if (this.stopped) break;
      if (code === 4001) {
        // A provider whose fresh tokens are refused as well would be asked forever.
        this.refusedInARow += 1;
        const renewed = this.refusedInARow <= 3 && (await this.credentials.renew(token).then(() => true, () => false));
        if (!renewed) {
          this.dispatcher.dispatchState("closed", userId, "unauthorized");
          return;
        }
      } else if (code === 4008) {
        this.dispatcher.dispatchState("closed", userId, "replaced_by_newer_connection");
        return;
      } else if (code !== 4009) {
        if (Date.now() - openedAt > this.settings.stableAfter * 1000) delay = this.settings.initialBackoff;
        this.dispatcher.dispatchState("reconnecting", userId);
        const networkCameBack = await this.backoff(Math.random() * delay);
        delay = networkCameBack ? this.settings.initialBackoff : Math.min(delay * 2, this.settings.maximumBackoff);
      }
      attempt += 1;
    }
    this.dispatcher.dispatchState("closed", userId, "requested");
  }

  /** Waits `seconds`, or less when the network comes back (true) or the connection stops. */
  backoff(seconds) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(false), seconds * 1000);
      const finish = (cut) => {
        clearTimeout(timer);
        this.wakeBackoff = null;
        resolve(cut);
      };
      this.wakeBackoff = finish;
    });
  }

  /** One connection, until it ends; its close code (1006: dropped without one). */
  connectOnce(token) {
    return new Promise((resolve) => {
      let socket;
      let ended = false;
      const end = (code) => {
        if (ended) return;
        ended = true;
        if (this.socket === socket) this.socket = null;
        resolve(code);
      };
      try {
        socket = this.newSocket();
      } catch {
        end(1006);
        return;
      }
      this.socket = socket;
      let opened = false;
      socket.onopen = () => {
        opened = true;
        const auth = { type: "auth", token };
        if (this.cursor !== null) auth.after = this.cursor;
        socket.send(JSON.stringify(auth));
      };
      socket.onmessage = (message) => {
        if (typeof message.data !== "string") return;
        this.handling = this.handling.then(() => this.handle(message.data)).catch(() => {});
      };
      // A failed handshake may end with `error` alone (Node 20's WebSocket fires no `close` then).
      socket.onerror = () => {
        if (!opened) end(1006);
      };
      socket.onclose = (event) => end(event.code || 1006);
    });
  }

  /**
   * A WebSocket to the stream. On Node, on a connection of its own: undici's WebSocket may send
   * the upgrade on a connection its `fetch` pool keeps alive, and the server (NIO's upgrade
   * handler) upgrades only a connection's first request, as browsers always send it.
   */
  newSocket() {
    const dispatcher = this.WebSocketImpl === globalThis.WebSocket ? ownDispatcher() : null;
    return dispatcher ? new this.WebSocketImpl(this.eventsUrl, { dispatcher }) : new this.WebSocketImpl(this.eventsUrl);
  }

  async handle(text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof frame?.type !== "string") return;
    switch (frame.type) {
      case "hello":
        this.helloLastEventId = frame.last_event_id ?? null;
        if (this.cursor === null) this.cursor = this.helloLastEventId;
        this.refusedInARow = 0;
        this.dispatcher.dispatchState("open", this.credentials.userId);
        if (this.hasOpened) this.reopened();
        this.hasOpened = true;
        return;
      case "resync_required":
        this.cursor = this.helloLastEventId;
        await this.resync();
        return;
      default:
        if (typeof frame.event_id === "number") {
          if (this.cursor !== null && frame.event_id <= this.cursor) return;
          this.dispatcher.dispatch(frame);
          this.cursor = frame.event_id;
          this.lastEventTs = frame.ts ?? this.lastEventTs;
        } else {
          this.dispatcher.dispatch(frame);
        }
    }
  }

  /**
   * Back after a drop: enters the open channels again (a participation lapses 30 s after the
   * user's last socket closed; a refusal comes as an `error` frame), then tells the app, so that an
   * open channel's collection reads what it missed (the server keeps no open-channel changelog).
   */
  reopened() {
    for (const channelUrl of [...this.enteredOpenChannels].sort()) {
      try {
        this.send({ type: "enter", channel_url: channelUrl });
      } catch {
        // The socket closed again: the next connection enters.
      }
    }
    this.dispatcher.dispatch({ type: "reconnected" });
  }

  /** What the server could not replay, from the channel changelog (EVENTS.md §11). */
  async resync() {
    const since = this.lastEventTs ?? Date.now() - 86_400_000;
    const path = `/v3/users/${segment(this.credentials.userId)}/my_group_channels/changelogs`;
    const changes = { updated: [], deleted: [] };
    let token = null;
    for (let round = 0; round < 100; round += 1) {
      const query = token ? { token } : { change_ts: since };
      let body;
      try {
        body = await this.rest.call("GET", path, { query });
      } catch {
        break;
      }
      changes.updated.push(...(body.updated ?? []));
      changes.deleted.push(...(body.deleted ?? []));
      token = body.next;
      if (!body.has_more) break;
    }
    this.dispatcher.dispatchResync(changes);
    // Then to the listeners: a message collection catches its channel up.
    this.dispatcher.dispatch({ type: "resync_required" });
  }
}

/**
 * On Node: an undici Agent of the stream's own (its global dispatcher's class), made once. Before
 * the first `fetch` there is no global dispatcher, and no pooled connection to reuse either.
 */
let streamDispatcher = null;
function ownDispatcher() {
  if (streamDispatcher || !globalThis.process?.versions?.node) return streamDispatcher;
  const global = globalThis[Symbol.for("undici.globalDispatcher.1")];
  try {
    streamDispatcher = global ? new global.constructor() : null;
  } catch {
    streamDispatcher = null;
  }
  return streamDispatcher;
}
