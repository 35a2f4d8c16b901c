/**
 * Hands every frame of the event stream to the app, in order: to channel handlers as typed calls
 * (`onMessageReceived`, …), to `onEvent` listeners and async iterators as the frame itself, and the
 * connection's states to connection handlers.
 */
export class EventDispatcher {
  constructor() {
    this.channelHandlers = new Map();
    this.connectionHandlers = new Map();
    this.listeners = new Set();
    this.stateListeners = new Set();
    this.state = "closed";
    /** Who is typing, per channel: `channel_url` → `user_id` → user. */
    this.typing = new Map();
  }

  addChannelHandler(id, handler) {
    this.channelHandlers.set(id, handler);
  }

  addConnectionHandler(id, handler) {
    this.connectionHandlers.set(id, handler);
  }

  removeHandler(id) {
    this.channelHandlers.delete(id);
    this.connectionHandlers.delete(id);
  }

  /** Calls `listener(frame)` for every frame from now on; returns the function that stops it. */
  onEvent(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onState(listener) {
    this.stateListeners.add(listener);
    listener(this.state);
    return () => this.stateListeners.delete(listener);
  }

  /** The frames from now on as an async iterator; `return()` (leaving a for-await) ends it. */
  events() {
    const queue = [];
    let wake = null;
    let done = false;
    const stop = this.onEvent((frame) => {
      queue.push(frame);
      wake?.();
    });
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      async next() {
        while (!done && queue.length === 0) await new Promise((resolve) => (wake = resolve));
        wake = null;
        return done ? { done: true, value: undefined } : { done: false, value: queue.shift() };
      },
      async return() {
        done = true;
        stop();
        wake?.();
        return { done: true, value: undefined };
      },
    };
  }

  dispatchState(state, userId, reason) {
    const previous = this.state;
    this.state = state;
    if (state !== "open") this.typing.clear();
    if (previous === state) return;
    for (const listener of this.stateListeners) safely(() => listener(state, reason));
    for (const handler of this.connectionHandlers.values()) {
      if (state === "open") safely(() => (previous === "reconnecting" ? handler.onReconnectSucceeded?.() : handler.onConnected?.(userId)));
      if (state === "reconnecting") safely(() => handler.onReconnectStarted?.());
      if (state === "closed") safely(() => handler.onDisconnected?.(userId, reason));
    }
  }

  dispatchResync(changes) {
    for (const handler of this.connectionHandlers.values()) safely(() => handler.onResync?.(changes));
  }

  dispatch(frame) {
    for (const listener of this.listeners) safely(() => listener(frame));
    const typingUsers = this.trackTyping(frame);
    for (const handler of this.channelHandlers.values()) {
      deliver(frame, handler, typingUsers);
      safely(() => handler.onEvent?.(frame));
    }
  }

  trackTyping(frame) {
    if (frame.type !== "typing_started" && frame.type !== "typing_ended") return null;
    const user = frame.data?.user;
    if (!frame.channel_url || !user) return null;
    const users = this.typing.get(frame.channel_url) ?? new Map();
    if (frame.type === "typing_started") users.set(user.user_id, user);
    else users.delete(user.user_id);
    this.typing.set(frame.channel_url, users);
    return [...users.values()].sort((a, b) => (a.user_id < b.user_id ? -1 : 1));
  }
}

/** What each event type calls on a channel handler (EVENTS.md §3–4). */
const calls = {
  message_received: (h, c, d) => h.onMessageReceived?.(c, d),
  message_updated: (h, c, d) => h.onMessageUpdated?.(c, d),
  message_deleted: (h, c, d) => h.onMessageDeleted?.(c, d.message_id),
  reaction_updated: (h, c, d) => h.onReactionUpdated?.(c, d),
  read: (h, c, d) => h.onReadStatusUpdated?.(c, d.user_id, d.ts),
  delivered: (h, c, d) => h.onDeliveryStatusUpdated?.(c, d.user_id, d.ts),
  channel_changed: (h, c, d) => h.onChannelChanged?.(d),
  channel_deleted: (h, c) => h.onChannelDeleted?.(c),
  channel_frozen: (h, c) => h.onChannelFrozen?.(c),
  channel_unfrozen: (h, c) => h.onChannelUnfrozen?.(c),
  channel_hidden: (h, c) => h.onChannelHidden?.(c),
  member_joined: (h, c, d) => d.users?.forEach((u) => h.onUserJoined?.(c, u)),
  member_left: (h, c, d) => d.users?.forEach((u) => h.onUserLeft?.(c, u)),
  participant_entered: (h, c, d) => d.users?.forEach((u) => h.onUserEntered?.(c, u)),
  participant_exited: (h, c, d) => d.users?.forEach((u) => h.onUserExited?.(c, u)),
  user_invited: (h, c, d) => h.onUserReceivedInvitation?.(c, d.invitees ?? [], d.inviter ?? null),
  invitation_declined: (h, c, d) => h.onUserDeclinedInvitation?.(c, d.invitee ?? d.user, d.inviter ?? null),
  operators_changed: (h, c, d) => h.onOperatorUpdated?.(c, d.users ?? []),
  user_banned: (h, c, d) => h.onUserBanned?.(c, d.user),
  user_unbanned: (h, c, d) => h.onUserUnbanned?.(c, d.user),
  user_muted: (h, c, d) => h.onUserMuted?.(c, d.user),
  user_unmuted: (h, c, d) => h.onUserUnmuted?.(c, d.user),
  metadata_changed: (h, c, d) => h.onMetadataChanged?.(c, d),
  metacounter_changed: (h, c, d) => h.onMetacounterChanged?.(c, d),
  message_pinned: (h, c, d) => h.onPinnedMessageUpdated?.(c, d),
  message_unpinned: (h, c, d) => h.onPinnedMessageUpdated?.(c, d),
  poll_updated: (h, c, d) => h.onPollUpdated?.(c, d),
  poll_voted: (h, c, d) => h.onPollVoted?.(c, d),
  poll_deleted: (h, c, d) => h.onPollDeleted?.(c, d.poll_id),
};

function deliver(frame, handler, typingUsers) {
  if (frame.type === "unread_count_changed") {
    safely(() => handler.onUnreadCountChanged?.(frame.data ?? {}));
    return;
  }
  if (!frame.channel_url) return;
  const channel = { channel_url: frame.channel_url, channel_type: frame.channel_type ?? "group" };
  if (typingUsers) {
    safely(() => handler.onTypingStatusUpdated?.(channel, typingUsers));
    return;
  }
  const call = calls[frame.type];
  if (call) safely(() => call(handler, channel, frame.data ?? {}));
}

/** An app's handler that throws must not stop the others, nor the stream: it is reported. */
function safely(action) {
  try {
    action();
  } catch (error) {
    if (typeof globalThis.reportError === "function") globalThis.reportError(error);
    else console.error(error);
  }
}
