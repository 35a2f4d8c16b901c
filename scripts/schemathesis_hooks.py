"""Schemathesis hooks for scripts/schemathesis.

OpenAPI cannot state every rule of openapi.yaml: some are written in its descriptions because
they depend on the credentials, on another parameter or on time. The run is made with the
admin's `Api-Token`, so a schema-valid request that breaks one of these rules is refused with a
documented 400, which schemathesis would report as "schema-valid request rejected". The hook
below completes *positive* test cases (those schemathesis generated to be valid) so that they
keep these rules; negative cases are sent as generated (but for one value multipart cannot carry,
see `_keep_multipart_booleans_wrong`). Each rule names the description that states it. The hook
also keeps the seeded test data from being deleted or locked out (see below), and works around a
thread-safety bug of Python 3.11 that schemathesis' two workers would hit.
"""

import itertools
import os
import threading
import time

import schemathesis
from schemathesis import GenerationMode

# --- A workaround for the tool, not for the API ---------------------------------------------
# Hypothesis describes filter lambdas by parsing their source with `ast.parse`; in Python 3.11,
# two threads doing that at once can fail with "AST constructor recursion depth mismatch"
# (CPython gh-106905). The run uses two workers, so the description is made one at a time.
try:
    from hypothesis.internal import lambda_sources

    _describe = lambda_sources.lambda_description
    _lock = threading.Lock()

    def _serialized_description(f):
        with _lock:
            return _describe(f)

    lambda_sources.lambda_description = _serialized_description
except (ImportError, AttributeError):
    pass

# A seeded member of both seeded group channels and participant of both seeded open channels
# that the dictionaries never name, so that generated requests do not delete or deactivate it
# (scripts/schemathesis).
SEEDED_USER = "carol"
# The seeded member who leaves (and the participant who exits), so that carol stays.
LEAVING_USER = "erin"
# The seeded user banned and muted in the seeded open channels, so that the others stay
# participants (a ban makes a participant exit and refuses their enters and sends).
RESTRICTED_USER = "mallory"

# --- Keeping the seeded data for the whole run (test fixtures, not API rules) ----------------
# The examples and coverage phases send the spec's example values (`alice`, the channel
# `group_3f2a…`), and stateful steps send ids read from earlier responses, to DELETE operations
# too; the first such request would take the seeded user, channel or message away from every
# later test case. A positive DELETE (or leave) aimed at seeded data is sent to one of the
# seeded resources meant for deletion instead (scripts/schemathesis seeds both kinds).
SEEDED_USERS = {"alice", "bob", "carol", "dave", "erin"}
SEEDED_CHANNELS = {"group_3f2a9c0d1e8b47a6b5c4d3e2f1a0b9c8", "st-second"}
SEEDED_MESSAGES = {int(i) for i in os.environ.get("PARLEY_ST_SEEDED_MESSAGES", "").split(",") if i}
DISPOSABLE_USERS = itertools.cycle(["temp-1", "temp-2", "temp-3"])
DISPOSABLE_CHANNELS = itertools.cycle(["st-temp-1", "st-temp-2", "st-temp-3"])
DISPOSABLE_MESSAGES = itertools.cycle([int(i) for i in os.environ.get("PARLEY_ST_DISPOSABLE_MESSAGES", "0").split(",") if i])
# The same for open channels (their messages are in SEEDED_OPEN_CHANNEL).
SEEDED_OPEN_CHANNEL = "open_5e1b7c9d2a4f4e8b9c0d1e2f3a4b5c6d"
SEEDED_OPEN_CHANNELS = {SEEDED_OPEN_CHANNEL, "st-open-second"}
SEEDED_OPEN_MESSAGES = {int(i) for i in os.environ.get("PARLEY_ST_SEEDED_OPEN_MESSAGES", "").split(",") if i}
DISPOSABLE_OPEN_CHANNELS = itertools.cycle(["st-open-temp-1", "st-open-temp-2", "st-open-temp-3"])
DISPOSABLE_OPEN_MESSAGES = itertools.cycle(
    [int(i) for i in os.environ.get("PARLEY_ST_DISPOSABLE_OPEN_MESSAGES", "0").split(",") if i]
)


def _as_int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


OPEN_RESTRICTIONS = {("POST", "/v3/open_channels/{channel_url}/ban"), ("POST", "/v3/open_channels/{channel_url}/mute")}


def _keep_seeded_data(case, operation):
    path = case.path_parameters if isinstance(case.path_parameters, dict) else {}
    if operation == ("DELETE", "/v3/users/{user_id}") and path.get("user_id") in SEEDED_USERS:
        case.path_parameters = {**path, "user_id": next(DISPOSABLE_USERS)}
    elif operation == ("DELETE", "/v3/group_channels/{channel_url}") and path.get("channel_url") in SEEDED_CHANNELS:
        case.path_parameters = {**path, "channel_url": next(DISPOSABLE_CHANNELS)}
    elif operation == ("DELETE", "/v3/group_channels/{channel_url}/messages/{message_id}") and _as_int(path.get("message_id")) in SEEDED_MESSAGES:
        case.path_parameters = {**path, "message_id": next(DISPOSABLE_MESSAGES)}
    elif operation == ("PUT", "/v3/group_channels/{channel_url}/leave") and isinstance(case.body, dict):
        user_ids = case.body.get("user_ids")
        if isinstance(user_ids, list) and SEEDED_USER in user_ids:
            case.body = {**case.body, "user_ids": [LEAVING_USER if u == SEEDED_USER else u for u in user_ids]}
    elif operation == ("DELETE", "/v3/open_channels/{channel_url}") and path.get("channel_url") in SEEDED_OPEN_CHANNELS:
        case.path_parameters = {**path, "channel_url": next(DISPOSABLE_OPEN_CHANNELS)}
    elif operation == ("DELETE", "/v3/open_channels/{channel_url}/messages/{message_id}") and _as_int(path.get("message_id")) in SEEDED_OPEN_MESSAGES:
        case.path_parameters = {**path, "message_id": next(DISPOSABLE_OPEN_MESSAGES)}
    elif operation in OPEN_RESTRICTIONS and path.get("channel_url") in SEEDED_OPEN_CHANNELS and isinstance(case.body, dict):
        # The examples phase bans alice (the spec's example user) at once, for good; bans and
        # mutes of seeded users in the seeded open channels go to mallory instead.
        if case.body.get("user_id") in SEEDED_USERS:
            case.body = {**case.body, "user_id": RESTRICTED_USER}
    elif operation == ("PUT", "/v3/applications/settings/ip_whitelist") and isinstance(case.body, dict):
        # The run's own address stays on the IP allow-list, or every later request is 403.
        entries = case.body.get("ip_whitelist_addresses")
        if isinstance(entries, list):
            case.body = {**case.body, "ip_whitelist_addresses": entries[:98] + list(RUN_ADDRESSES)}
    elif operation == ("DELETE", "/v3/applications/settings/ip_whitelist") and isinstance(case.query, dict):
        entries = case.query.get("ip_whitelist_addresses")
        if isinstance(entries, str):
            entries = entries.split(",")
        if isinstance(entries, list):
            kept = [entry for entry in entries if entry not in RUN_ADDRESSES] or ["192.0.2.1"]
            case.query = {**case.query, "ip_whitelist_addresses": ",".join(kept)}
    elif operation == ("PUT", "/v3/open_channels/{channel_url}/exit"):
        # carol stays in the seeded open channels: an exit that names her (in the body, else the
        # query) names erin instead.
        if isinstance(case.body, dict) and case.body.get("user_id") == SEEDED_USER:
            case.body = {**case.body, "user_id": LEAVING_USER}
        if isinstance(case.query, dict) and case.query.get("user_id") == SEEDED_USER:
            case.query = {**case.query, "user_id": LEAVING_USER}


# The addresses the run calls from (loopback), kept on the IP allow-list.
RUN_ADDRESSES = ("127.0.0.0/8", "::1")


# The spec's example channel URL is the seeded group channel's (`group_3f2a…`), which no open
# channel can have (the kinds share one URL namespace): on an open channel's path, the examples
# and coverage phases would only ever meet a 404. A positive case naming a seeded group channel
# on such a path names the seeded open channel instead (test fixtures, not an API rule).
OPEN_CHANNEL_PATHS = ("/v3/open_channels/{channel_url}", "/v3/report/open_channels/{channel_url}")


def _aim_at_open_channel(case):
    if not case.path.startswith(OPEN_CHANNEL_PATHS):
        return
    path = case.path_parameters if isinstance(case.path_parameters, dict) else {}
    if path.get("channel_url") in SEEDED_CHANNELS:
        case.path_parameters = {**path, "channel_url": SEEDED_OPEN_CHANNEL}


# Operations that act for one user named by `user_id` in the body or the query, or else the
# session user: with `Api-Token` one of the two is required (400105), which their descriptions
# and the `ActingUserId` parameter say.
ACTING_USER_OPERATIONS = {
    ("PUT", "/v3/group_channels/{channel_url}/accept"),
    ("PUT", "/v3/group_channels/{channel_url}/decline"),
    ("PUT", "/v3/group_channels/{channel_url}/join"),
    ("PUT", "/v3/group_channels/{channel_url}/hide"),
    ("DELETE", "/v3/group_channels/{channel_url}/hide"),
    ("PUT", "/v3/group_channels/{channel_url}/reset_user_history"),
    ("PUT", "/v3/group_channels/{channel_url}/messages/mark_as_read"),
    ("PUT", "/v3/group_channels/{channel_url}/messages/mark_as_delivered"),
    ("POST", "/v3/group_channels/{channel_url}/messages/{message_id}/reactions"),
    ("DELETE", "/v3/group_channels/{channel_url}/messages/{message_id}/reactions"),
    ("PUT", "/v3/open_channels/{channel_url}/enter"),
    ("PUT", "/v3/open_channels/{channel_url}/exit"),
    ("POST", "/v3/open_channels/{channel_url}/messages/{message_id}/reactions"),
    ("DELETE", "/v3/open_channels/{channel_url}/messages/{message_id}/reactions"),
}
# The acting user those operations get: carol, except that erin is the one who exits.
ACTING_USER_FOR = {("PUT", "/v3/open_channels/{channel_url}/exit"): LEAVING_USER}
REACTION_REMOVALS = {
    ("DELETE", "/v3/group_channels/{channel_url}/messages/{message_id}/reactions"),
    ("DELETE", "/v3/open_channels/{channel_url}/messages/{message_id}/reactions"),
}
MESSAGE_SENDS = {
    ("POST", "/v3/group_channels/{channel_url}/messages"),
    ("POST", "/v3/open_channels/{channel_url}/messages"),
    ("POST", "/v3/group_channels/{channel_url}/scheduled_messages"),
}


TYPING = {("POST", "/v3/group_channels/{channel_url}/typing"), ("DELETE", "/v3/group_channels/{channel_url}/typing")}
POLL_WRITES = {("POST", "/v3/polls"), ("PUT", "/v3/polls/{poll_id}")}
UNREAD_ITEM_KEYS = {
    prefix + item for item in ("unread_message_count", "unread_mention_count", "invitation_count")
    for prefix in ("group_channel_", "super_group_channel_", "non_super_group_channel_")
}
SCHEDULED_WRITES = {
    ("POST", "/v3/group_channels/{channel_url}/scheduled_messages"),
    ("PUT", "/v3/group_channels/{channel_url}/scheduled_messages/{scheduled_message_id}"),
    ("POST", "/v3/group_channels/{channel_url}/scheduled_messages/{scheduled_message_id}"),
}


# An uncompressed P-256 public key (a browser subscription's `p256dh`), base64url.
WEB_PUSH_KEY = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"


def _time_zones():
    import zoneinfo

    return zoneinfo.available_timezones()


def _body_dict(case):
    return case.body if isinstance(case.body, dict) else None


def _given(value):
    return value is not None


# UploadFileMessageRequest: in `multipart/form-data` every field is text, and `is_silent` and
# `require_auth` take `true`, `false`, `1` or `0` (the upload's 400104 description). A negative
# case that gives one of them a value of another type that is sent as one of those texts (the
# number 0, the string "true") is a valid request on the wire, so it is sent with `2` instead,
# still of the wrong type. (The one change made to negative cases.)
MULTIPART_BOOLEAN_TEXTS = {"true", "false", "1", "0"}


def _keep_multipart_booleans_wrong(case, operation):
    if operation not in MESSAGE_SENDS or not isinstance(case.body, dict):
        return
    if not (case.media_type or "").startswith("multipart/form-data"):
        return
    for field in ("is_silent", "require_auth"):
        value = case.body.get(field)
        if value is not None and not isinstance(value, bool) and str(value) in MULTIPART_BOOLEAN_TEXTS:
            case.body = {**case.body, field: 2}


@schemathesis.hook
def before_call(context, case, **kwargs):
    meta = case.meta
    if meta is not None and meta.generation.mode == GenerationMode.NEGATIVE:
        _keep_multipart_booleans_wrong(case, (case.method.upper(), case.path))
    if meta is None or meta.generation.mode != GenerationMode.POSITIVE:
        return
    operation = (case.method.upper(), case.path)
    _aim_at_open_channel(case)
    _keep_seeded_data(case, operation)
    query = case.query if isinstance(case.query, dict) else None
    body = _body_dict(case)

    # Comma-separated lists (UserIdList and the like): a stateful step can carry a JSON list from
    # a response into such a query parameter, which would then not be sent at all; send it as
    # the comma-separated text the parameter is.
    if query is not None and any(isinstance(value, list) for value in query.values()):
        query = {key: ",".join(map(str, value)) if isinstance(value, list) else value for key, value in query.items()}
        case.query = query

    # PageToken: a token is signed by the server for one list and its filters, so none that a
    # generator makes is valid (400109). Positive cases ask for the first page.
    if query is not None and ("token" in query or "next" in query):
        query = {key: value for key, value in query.items() if key not in ("token", "next")}
        case.query = query

    # ChannelOrder: `metadata_value_alphabetical` needs `metadata_order_key` (400105).
    if query is not None and query.get("order") == "metadata_value_alphabetical" and not query.get("metadata_order_key"):
        case.query = query = {**query, "metadata_order_key": "topic"}

    # UnreadFilter: with Api-Token, `GET /v3/group_channels` needs `user_id` for `unread_message`.
    if operation == ("GET", "/v3/group_channels") and query is not None:
        if query.get("unread_filter") == "unread_message" and not query.get("user_id"):
            case.query = query = {**query, "user_id": SEEDED_USER}

    # ActingUserId / ChannelUserRequest: `user_id` from the body, else the query (Api-Token).
    if operation in ACTING_USER_OPERATIONS:
        in_body = body is not None and _given(body.get("user_id"))
        in_query = query is not None and _given(query.get("user_id"))
        if not in_body and not in_query:
            case.query = {**(query or {}), "user_id": ACTING_USER_FOR.get(operation, SEEDED_USER)}
            query = case.query

    # DELETE …/reactions: "the reaction to remove; required unless the body gives `reaction`".
    if operation in REACTION_REMOVALS:
        if not (query and _given(query.get("reaction"))) and not (body and _given(body.get("reaction"))):
            case.query = {**(query or {}), "reaction": "thumbs_up"}

    # GET …/messages/unread_count: `user_ids` "defaults to the session user (required with Api-Token)".
    if operation == ("GET", "/v3/group_channels/{channel_url}/messages/unread_count"):
        if not (query and query.get("user_ids", "").strip(",")):
            case.query = {**(query or {}), "user_ids": SEEDED_USER}

    # LeaveChannelRequest: `user_ids` "defaults to the session user (required with Api-Token)".
    if operation == ("PUT", "/v3/group_channels/{channel_url}/leave"):
        if body is None or not body.get("user_ids"):
            case.body = {**(body or {}), "user_ids": [LEAVING_USER]}

    # SendMessageRequest / UploadFileMessageRequest: the sender `user_id` is "required with
    # Api-Token" (except for ADMM). (In an open channel carol is a participant, so she may send.)
    if operation in MESSAGE_SENDS and body is not None:
        if body.get("message_type") != "ADMM" and not _given(body.get("user_id")):
            case.body = body = {**body, "user_id": SEEDED_USER}
        # `target_langs`: "languages that can be translated into" (the provider's list).
        if isinstance(body.get("target_langs"), list) and body["target_langs"]:
            case.body = body = {**body, "target_langs": ["es"]}
        # `poll_id`: a poll "made by the sender … for this channel, carried by no message yet".
        if _given(body.get("poll_id")) and body.get("poll_id") != 0:
            case.body = body = {**body, "poll_id": 0}
        # `parent_message_id`: "a message of the channel that is not removed" (the seeded
        # channels' ids are not known here): a positive case is no reply.
        if _given(body.get("parent_message_id")):
            case.body = body = {k: v for k, v in body.items() if k != "parent_message_id"}

    # TypingRequest: `user_ids` "required with Api-Token" (the session user's by default).
    if operation in TYPING and (body is None or not body.get("user_ids")):
        case.body = {**(body or {}), "user_ids": [SEEDED_USER]}

    # VotePollRequest: the voter `user_id` is "required with Api-Token".
    if operation == ("PUT", "/v3/polls/{poll_id}/vote") and body is not None and not _given(body.get("user_id")):
        case.body = {**body, "user_id": SEEDED_USER}

    # CreatePollRequest / UpdatePollRequest: `close_at` is -1 or "a time to come".
    if operation in POLL_WRITES and body is not None:
        close_at = body.get("close_at")
        if isinstance(close_at, (int, float)) and close_at != -1 and close_at <= time.time() * 1000 + 60_000:
            case.body = body = {**body, "close_at": int(time.time() * 1000) + 86_400_000}

    # Scheduled messages: `scheduled_at` lies between 5 minutes and 30 days from now.
    if operation in SCHEDULED_WRITES and body is not None:
        scheduled_at = _as_int(body.get("scheduled_at"))
        now = time.time() * 1000
        if scheduled_at is not None and not now + 360_000 <= scheduled_at <= now + 29 * 86_400_000:
            case.body = body = {**body, "scheduled_at": int(now) + 3_600_000}
        # A changed text "must not be empty" (the schema's `string` allows it).
        if body.get("message") == "":
            case.body = body = {**body, "message": "changed"}

    # Search: the query "holds at least one letter or digit".
    if operation == ("GET", "/v3/search/messages") and query is not None:
        text = query.get("query")
        if isinstance(text, str) and not any(c.isalnum() for c in text):
            case.query = query = {**query, "query": text + "a"}

    # Message search: "at most 16 terms" (`PARLEY_MAX_SEARCH_TERMS`; each CJK character counts).
    if operation == ("GET", "/v3/search/messages") and query is not None and isinstance(query.get("query"), str):
        words, terms, run = query["query"], 0, False
        for character in words:
            word_character = character.isalnum()
            terms += word_character and (not run or "\u1100" <= character <= "\uffef")
            run = word_character
        if terms > 16:
            case.query = query = {**query, "query": "words"}

    # Device tokens: the body carries the field its path's `token_type` names ("the field
    # named for the type"); a positive case without it is given one of that type's form.
    if operation == ("POST", "/v3/users/{user_id}/push/{token_type}") and body is not None:
        kind = (case.path_parameters or {}).get("token_type")
        field, value = {
            "gcm": ("gcm_reg_token", "fcm-token"), "huawei": ("huawei_device_token", "hms-token"),
            "apns": ("apns_device_token", "ab" * 32),
        }.get(kind, (None, None))
        if field is not None and not _given(body.get(field)):
            case.body = body = {**body, field: value}

    # Emojis: "a key is named twice" in one request is refused (no schema states uniqueness by a
    # member); a positive case names each key once.
    if operation == ("POST", "/v3/emojis") and body is not None and isinstance(body.get("emojis"), list):
        seen = set()
        unique = [e for e in body["emojis"] if not (isinstance(e, dict) and (e.get("key") in seen or seen.add(e.get("key"))))]
        if unique:
            case.body = body = {**body, "emojis": unique}

    # Statistics: a span "at most 366 days" (daily), ten years (monthly): a positive case asks for
    # one day.
    if case.path in ("/v3/applications/peak_connections", "/v3/statistics/metric") and query is not None:
        for start, end in (("start_year", "end_year"), ("start_month", "end_month"), ("start_day", "end_day")):
            if start in query:
                query = {**query, end: query[start]}
        case.query = query

    # Channel lists: `metadata_values` and `metadata_value_startswith` "need `metadata_key`",
    # `metacounter_values` and `metacounter_value_*` "need `metacounter_key`".
    if case.path in ("/v3/group_channels", "/v3/users/{user_id}/my_group_channels") and query is not None:
        if ("metadata_values" in query or "metadata_value_startswith" in query) and not query.get("metadata_key"):
            case.query = query = {**query, "metadata_key": "topic"}
        if any(key.startswith("metacounter_value") for key in query) and not query.get("metacounter_key"):
            case.query = query = {**query, "metacounter_key": "score"}
        # … and `metacounter_values` are "whole numbers, comma-separated".
        values = query.get("metacounter_values")
        if isinstance(values, str) and not all(v.strip().lstrip("-").isdigit() for v in values.split(",")):
            case.query = query = {**query, "metacounter_values": "1,2"}

    # Unread items: `item_keys` names keys of the answer.
    if operation == ("GET", "/v3/users/{user_id}/unread_item_count") and query and "item_keys" in query:
        keys = [k for k in str(query["item_keys"]).split(",") if k in UNREAD_ITEM_KEYS]
        case.query = query = {**query, "item_keys": ",".join(keys)} if keys else {k: v for k, v in query.items() if k != "item_keys"}

    # Changelogs: "one of `change_ts` and `token` is required".
    if case.path.endswith("/changelogs") and query is not None and "change_ts" not in query:
        case.query = query = {**query, "change_ts": 0}

    # GDPRRequestBody: "`user_id` for an access request" (the seeded user's: only read).
    if operation == ("POST", "/v3/privacy/gdpr") and body is not None and body.get("action") == "access":
        if not _given(body.get("user_id")):
            case.body = body = {**body, "user_id": SEEDED_USER}

    # Announcements' open status: ids and URLs are text without control characters, which the
    # schema's plain `string` does not say.
    if case.path.startswith("/v3/announcement_open_status") and query:
        case.query = query = {k: "".join(c for c in v if c.isprintable()) if isinstance(v, str) else v for k, v in query.items()}

    # GdprRequest: "`channel_delete_option` only with `delete`".
    if operation == ("POST", "/v3/privacy/gdpr") and body is not None and body.get("action") == "access":
        case.body = body = {k: v for k, v in body.items() if k != "channel_delete_option"}

    # PushPreferenceChange: a snooze "ends after it starts" (also the stored end, when only the
    # start is given).
    if operation == ("PUT", "/v3/users/{user_id}/push_preference") and body is not None:
        start, end = body.get("snooze_start_ts"), body.get("snooze_end_ts")
        if isinstance(start, (int, float)) and not isinstance(end, (int, float)):
            case.body = body = {**body, "snooze_end_ts": int(start) + 3_600_000}
            end = body["snooze_end_ts"]
        if isinstance(start, (int, float)) and isinstance(end, (int, float)) and end < start:
            case.body = body = {**body, "snooze_end_ts": start}

    # DataExportRequest: `end_ts` "must be after `start_ts`".
    if operation == ("POST", "/v3/export/{data_type}") and body is not None:
        start, end = body.get("start_ts"), body.get("end_ts")
        if isinstance(start, (int, float)) and isinstance(end, (int, float)) and end <= start:
            case.body = body = {**body, "end_ts": int(start) + 1}

    # WebPushSubscription: an endpoint at a push service the server sends to (by default the
    # browsers', PARLEY_WEBPUSH_SERVICES) and a real P-256 key, which patterns cannot state.
    if operation == ("POST", "/v3/users/{user_id}/push/{token_type}") and body is not None:
        subscription = body.get("web_push_subscription")
        if (case.path_parameters or {}).get("token_type") == "web":
            subscription = subscription if isinstance(subscription, dict) else {}
            case.body = body = {**body, "web_push_subscription": {
                **subscription, "endpoint": "https://fcm.googleapis.com/fcm/send/st-" + str(abs(hash(str(subscription)))),
                "keys": {"p256dh": WEB_PUSH_KEY, "auth": "AAECAwQFBgcICQoLDA0ODw"},
            }}

    # PushPreferenceChange: `timezone` is "an IANA time zone name" (a pattern cannot list them).
    if operation == ("PUT", "/v3/users/{user_id}/push_preference") and body is not None:
        zone = body.get("timezone")
        if isinstance(zone, str) and zone not in _time_zones():
            case.body = body = {**body, "timezone": "Europe/Berlin"}

    # IssueSessionTokenRequest: `expires_at` "must be in the future".
    if operation == ("POST", "/v3/users/{user_id}/token") and body is not None:
        expires_at = body.get("expires_at")
        # (a whole number may come as a float such as `-5.0`, which the schema's `integer` admits)
        if isinstance(expires_at, (int, float)) and expires_at <= time.time() * 1000 + 60_000:
            case.body = {**body, "expires_at": int(time.time() * 1000) + 86_400_000}
