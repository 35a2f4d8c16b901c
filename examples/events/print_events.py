#!/usr/bin/env python3
"""Prints one Parley user's live events, one line per frame (protocol: docs/EVENTS.md).

    python3 print_events.py --token <session token>   (or PARLEY_SESSION_TOKEN=<token>)
                            [--url ws://127.0.0.1:8080/v3/events] [--after <event id>]

Reconnects with ?after=<last event_id> after any drop, so no event is missed; stops when the
token is refused (4001) or the user opened too many sockets (4008).
"""
import argparse, asyncio, json, os, random, sys, time

import websockets
try:  # websockets >= 13
    from websockets.asyncio.client import connect
    HEADERS = "additional_headers"
except ImportError:  # websockets 10-12 (Debian 12 ships 10.4)
    from websockets import connect
    HEADERS = "extra_headers"

STOP = {4001: "the session token was refused (missing, wrong, revoked or expired, or the user "
              "is deactivated): issue a new one with POST /v3/users/{user_id}/token",
        4008: "this user opened too many sockets elsewhere and this one was the oldest"}


def names(users):
    return ", ".join(u["user_id"] for u in users)


def summary(frame):
    """A short human description of a frame's data."""
    t, d = frame["type"], frame.get("data") or {}
    if t in ("message_received", "message_updated"):
        text = d.get("message") or (d.get("file") or {}).get("name", "")
        return f'{(d.get("user") or {}).get("user_id", "admin")}: {" ".join(text.split())[:80]}'
    if t == "message_deleted":
        return f'message {d["message_id"]}'
    if t == "reaction_updated":
        return f'{d["user_id"]} {d["operation"]} {d["key"]} on message {d["message_id"]}'
    if t in ("read", "delivered"):
        return f'{d["user_id"]} up to {time.strftime("%H:%M:%S", time.localtime(d["ts"] / 1000))}'
    if t in ("member_joined", "member_left", "invitation_declined", "operators_changed"):
        return names(d["users"])
    if t == "user_invited":
        return f'{(d.get("inviter") or {}).get("user_id", "admin")} invited {names(d["invitees"])}'
    if t in ("typing_started", "typing_ended"):
        return d["user"]["user_id"]
    if t == "unread_count_changed":
        return (f'unread {d["unread_message_count"]}, mentions {d["unread_mention_count"]}, '
                f'total {d["total_unread_message_count"]}')
    if t == "channel_changed":
        return f'name "{d.get("name", "")}"'
    if t == "metadata_changed":
        return f'set {d["metadata"]} deleted {d["deleted_keys"]}'
    if t == "hello":
        return f'connection {frame["connection_id"]}, live after event {frame["last_event_id"]}'
    if t == "error":
        return f'{frame["code"]} {frame["message"]}'
    return json.dumps(d)[:100] if d else ""  # a type this script does not know: still show it


def show(frame):
    stamp = time.strftime("%H:%M:%S")
    event_id = f'#{frame["event_id"]}' if "event_id" in frame else "-"
    print(f'{stamp} {event_id:>7} {frame["type"]:<21} {frame.get("channel_url", ""):<16} {summary(frame)}',
          flush=True)


async def run(url, token, cursor):
    # cursor: the last event_id handled, the only state a client needs to resume.
    delay = 1.0
    while True:
        target = url if cursor is None else f"{url}?after={cursor}"
        started = time.monotonic()
        try:
            async with connect(target, **{HEADERS: {"Session-Token": token}}) as ws:
                async for raw in ws:
                    frame = json.loads(raw)
                    show(frame)
                    if frame["type"] == "hello":
                        live_from = frame["last_event_id"]  # live events follow this id
                        if cursor is None:
                            cursor = live_from
                    elif frame["type"] == "resync_required":
                        # Our cursor is too old (or unknown): the gap must be read over REST.
                        # The stream itself goes on, live after the hello's id.
                        print("  -> events were missed: a real client now catches up over REST "
                              "(my_group_channels/changelogs, messages/changelogs, message history)", flush=True)
                        cursor = live_from
                    elif "event_id" in frame:
                        cursor = frame["event_id"]  # typing/unread frames carry none
                # The server closed cleanly (1000: shutting down; 1001: we missed its pings).
                code, reason = ws.close_code or 1000, ws.close_reason
        except websockets.exceptions.ConnectionClosed as closed:
            code, reason = (closed.rcvd.code, closed.rcvd.reason) if closed.rcvd else (1006, "connection lost")
        except (OSError, websockets.exceptions.InvalidHandshake) as error:  # server down, refused...
            code, reason = 1006, str(error) or type(error).__name__
        if code in STOP:
            sys.exit(f"closed {code}: {STOP[code]}")
        if time.monotonic() - started > 10:
            delay = 1.0  # the connection had been healthy: start backing off from scratch
        # Full jitter, so that the clients of a restarted server do not all come back at once.
        wait = 0 if code == 4009 else random.uniform(0, delay)
        print(f"closed {code} ({reason}); reconnecting in {wait:.1f} s"
              + (f" after event {cursor}" if cursor is not None else ""), file=sys.stderr, flush=True)
        await asyncio.sleep(wait)
        delay = min(delay * 2, 30.0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="ws://127.0.0.1:8080/v3/events")
    parser.add_argument("--token", default=os.environ.get("PARLEY_SESSION_TOKEN"),
                        help="a session token (default: $PARLEY_SESSION_TOKEN)")
    parser.add_argument("--after", type=int, help="resume after this event id (one a previous run printed)")
    args = parser.parse_args()
    if not args.token:
        parser.error("a session token is needed: --token or PARLEY_SESSION_TOKEN")
    try:
        asyncio.run(run(args.url, args.token, args.after))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
