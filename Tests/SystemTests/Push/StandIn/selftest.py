#!/usr/bin/env python3
"""Self-test of push_standin.py: starts it as a subprocess and exercises every route.

    python3 Tests/SystemTests/Push/StandIn/selftest.py        (add -v for each test's name)

Needs what the stand-in needs (hypercorn, cryptography) plus curl with HTTP/2 (for APNs).
The client side here signs its own JWTs (ES256 raw r||s, RS256) and encrypts Web Push
payloads itself (RFC 8291), checked against the RFC's Appendix A vector.
"""

from __future__ import annotations

import base64
import json
import os
import selectors
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request
import uuid

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

HERE = os.path.dirname(os.path.abspath(__file__))
STANDIN = os.path.join(HERE, "push_standin.py")
sys.path.insert(0, HERE)
import push_standin  # noqa: E402  (for its decryption function, checked on the RFC vector)


# ---------------------------------------------------------------------------------------------
# Client-side helpers (independent of the stand-in's code)
# ---------------------------------------------------------------------------------------------


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def jws(header: dict, claims: dict, sign) -> str:
    signing_input = b64u(json.dumps(header).encode()) + "." + b64u(json.dumps(claims).encode())
    return signing_input + "." + b64u(sign(signing_input.encode()))


def es256_signer(key, der=False):
    def sign(data):
        signature = key.sign(data, ec.ECDSA(hashes.SHA256()))
        if der:
            return signature
        r, s = decode_dss_signature(signature)
        return r.to_bytes(32, "big") + s.to_bytes(32, "big")
    return sign


def rs256_signer(key):
    return lambda data: key.sign(data, padding.PKCS1v15(), hashes.SHA256())


def point(public_key) -> bytes:
    return public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def webpush_encrypt(plaintext: bytes, ua_public: bytes, auth: bytes, as_private=None, salt=None,
                    rs=4096, pad=0) -> bytes:
    """RFC 8291 §3-4 encryption of a single aes128gcm record."""
    as_private = as_private or ec.generate_private_key(ec.SECP256R1())
    salt = salt or os.urandom(16)
    as_public = point(as_private.public_key())
    shared = as_private.exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), ua_public))
    ikm = HKDF(hashes.SHA256(), 32, auth, b"WebPush: info\x00" + ua_public + as_public).derive(shared)
    cek = HKDF(hashes.SHA256(), 16, salt, b"Content-Encoding: aes128gcm\x00").derive(ikm)
    nonce = HKDF(hashes.SHA256(), 12, salt, b"Content-Encoding: nonce\x00").derive(ikm)
    record = AESGCM(cek).encrypt(nonce, plaintext + b"\x02" + b"\x00" * pad, None)
    return salt + rs.to_bytes(4, "big") + bytes([len(as_public)]) + as_public + record


# RFC 8291 Appendix A.
RFC = {
    "plaintext": b"When I grow up, I want to be a watermelon",
    "as_private": "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw",
    "as_public": "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8",
    "ua_private": "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94",
    "ua_public": "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
    "auth": "BTBZMqHH6r4Tts7J_aSIgg",
    "salt": "DGv6ra1nlYgDCS1FRnbzlw",
    "message": "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK"
               "6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
}


def read(path, mode="r"):
    with open(path, mode) as handle:
        return handle.read()


def start_standin(directory, *extra):
    proc = subprocess.Popen(
        [sys.executable, STANDIN, "--dir", directory, *extra],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )
    selector = selectors.DefaultSelector()
    selector.register(proc.stdout, selectors.EVENT_READ)
    if not selector.select(timeout=30):
        proc.kill()
        raise RuntimeError("no handshake within 30 s")
    line = proc.stdout.readline()
    if not line:
        raise RuntimeError("stand-in exited before its handshake (code %s)" % proc.wait())
    return proc, json.loads(line)


class Client:
    def __init__(self, handshake):
        self.hs = handshake
        self.base = "https://127.0.0.1:%d" % handshake["port"]
        self.context = ssl.create_default_context(cafile=handshake["ca_file"])

    def http(self, method, path_or_url, body=None, headers=None):
        url = path_or_url if path_or_url.startswith("https://") else self.base + path_or_url
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
            headers = {"content-type": "application/json", **(headers or {})}
        elif isinstance(body, str):
            body = body.encode()
        request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, context=self.context, timeout=15) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    def json(self, method, path, body=None, headers=None):
        status, headers, data = self.http(method, path, body, headers)
        return status, headers, (json.loads(data) if data else None)

    def received(self, provider=None):
        path = "/received" + ("?provider=" + provider if provider else "")
        return self.json("GET", path)[2]["pushes"]

    def stats(self):
        return self.json("GET", "/stats")[2]

    # --- APNs through curl (urllib has no HTTP/2) -------------------------------------------------

    def apns(self, tokens, headers, body, http="--http2", host="127.0.0.1"):
        if isinstance(tokens, str):
            tokens = [tokens]
        marker = "@@@"
        args = ["curl", "-sS", http, "--cacert", self.hs["ca_file"], "-X", "POST",
                "--data-binary", body if isinstance(body, str) else json.dumps(body),
                "-w", "\n" + marker + '{"code":%{http_code},"version":"%{http_version}",'
                      '"apns_id":"%header{apns-id}","retry_after":"%header{retry-after}",'
                      '"connects":%{num_connects}}\n']
        for name, value in headers.items():
            args += ["-H", "%s: %s" % (name, value)]
        args += ["https://%s:%d/3/device/%s" % (host, self.hs["port"], t) for t in tokens]
        out = subprocess.run(args, capture_output=True, text=True, timeout=30)
        if out.returncode != 0:
            raise RuntimeError("curl failed: %s" % out.stderr)
        results = []
        rest = out.stdout
        while marker in rest:
            body_text, _, tail = rest.partition("\n" + marker)
            meta_line, _, rest = tail.partition("\n")
            meta = json.loads(meta_line)
            meta["body"] = json.loads(body_text) if body_text.strip() else None
            results.append(meta)
        return results if len(results) > 1 else results[0]


# ---------------------------------------------------------------------------------------------


class StandInTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="push-standin-")
        cls.proc, cls.hs = start_standin(cls.dir, "--apns-topic", "org.parley.test",
                                         "--vapid-subject", "mailto:push@parley.test")
        cls.c = Client(cls.hs)
        cls.apns_key = serialization.load_pem_private_key(read(cls.hs["apns_key_file"], "rb"), None)
        cls.account = json.loads(read(cls.hs["fcm_credentials_file"]))
        cls.fcm_key = serialization.load_pem_private_key(cls.account["private_key"].encode(), None)
        cls.vapid_key = serialization.load_pem_private_key(read(cls.hs["vapid_private_key_file"], "rb"), None)

    @classmethod
    def tearDownClass(cls):
        cls.proc.stdin.close()  # closing stdin must end it
        try:
            cls.proc.wait(timeout=10)
        finally:
            if cls.proc.poll() is None:
                cls.proc.kill()
            cls.proc.stdout.close()
            shutil.rmtree(cls.dir, ignore_errors=True)

    # --- helpers -------------------------------------------------------------------------------

    def apns_jwt(self, key=None, kid="ABC123DEFG", iss="TEAM123456", iat=None, der=False):
        return jws({"alg": "ES256", "kid": kid},
                   {"iss": iss, "iat": int(time.time()) if iat is None else iat},
                   es256_signer(key or self.apns_key, der))

    def apns_headers(self, **overrides):
        headers = {
            "authorization": "bearer " + self.apns_jwt(),
            "apns-topic": "org.parley.test",
            "apns-push-type": "alert",
            "apns-priority": "10",
            "apns-expiration": str(int(time.time()) + 3600),
        }
        headers.update(overrides)
        return {k: v for k, v in headers.items() if v is not None}

    APS = {"aps": {"alert": {"title": "Ann", "body": "hello"}, "sound": "default"}, "channel": "c1"}

    def fcm_assertion(self, key=None, **claims):
        now = int(time.time())
        body = {"iss": self.account["client_email"], "aud": self.account["token_uri"],
                "scope": "https://www.googleapis.com/auth/firebase.messaging", "iat": now, "exp": now + 3600}
        body.update(claims)
        return jws({"alg": "RS256", "typ": "JWT", "kid": self.account["private_key_id"]}, body,
                   rs256_signer(key or self.fcm_key))

    def fcm_token_request(self, assertion):
        form = urllib.parse.urlencode({"grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer",
                                       "assertion": assertion})
        token_path = urllib.parse.urlsplit(self.account["token_uri"]).path
        return self.c.json("POST", token_path, form, {"content-type": "application/x-www-form-urlencoded"})

    def fcm_access(self):
        status, _, body = self.fcm_token_request(self.fcm_assertion())
        self.assertEqual(status, 200, body)
        return body["access_token"]

    def fcm_send(self, access, token, data=None, project="parley-test"):
        message = {"message": {"token": token, "data": data or {"type": "message", "channel": "c1"},
                               "android": {"priority": "high", "ttl": "3600s"}}}
        return self.c.json("POST", "/v1/projects/%s/messages:send" % project, message,
                           {"authorization": "Bearer " + access})

    def hms_access(self):
        form = "grant_type=client_credentials&client_id=hms-app-1&client_secret=hms-secret-1"
        status, _, body = self.c.json("POST", "/hms/token", form)
        self.assertEqual(status, 200, body)
        return body["access_token"]

    def hms_send(self, access, token, data):
        body = {"validate_only": False,
                "message": {"data": json.dumps(data), "token": [token],
                            "android": {"urgency": "HIGH", "ttl": "3600s"}}}
        headers = {"authorization": "Bearer " + access} if access else {}
        return self.c.json("POST", "/hms/v1/hms-app-1/messages:send", body, headers)

    def subscribe(self, query=""):
        status, _, sub = self.c.json("POST", "/webpush/new" + query)
        self.assertEqual(status, 200)
        return sub

    def vapid_header(self, key=None, k_key=None, **claims):
        body = {"aud": self.c.base, "exp": int(time.time()) + 12 * 3600, "sub": "mailto:push@parley.test"}
        body.update(claims)
        token = jws({"typ": "JWT", "alg": "ES256"}, body, es256_signer(key or self.vapid_key))
        k = point((k_key or key or self.vapid_key).public_key())
        return "vapid t=%s, k=%s" % (token, b64u(k))

    def web_push(self, sub, payload: bytes, authorization=None, extra=None, body=None):
        if body is None:
            body = webpush_encrypt(payload, unb64u(sub["keys"]["p256dh"]), unb64u(sub["keys"]["auth"]))
        headers = {"content-encoding": "aes128gcm", "ttl": "60", "urgency": "high",
                   "content-type": "application/octet-stream",
                   "authorization": authorization or self.vapid_header()}
        headers.update(extra or {})
        headers = {k: v for k, v in headers.items() if v is not None}
        return self.c.http("POST", sub["endpoint"], body, headers)

    def last(self, provider, token):
        return [r for r in self.c.received(provider) if r["token"] == token][-1]

    # --- handshake and files -------------------------------------------------------------------

    def test_handshake_and_files(self):
        hs = self.hs
        for key in ("port", "ca_file", "apns_key_file", "apns_key_id", "apns_team_id", "apns_topic",
                    "fcm_credentials_file", "vapid_private_key_file", "vapid_subject", "hms_app_id",
                    "hms_app_secret"):
            self.assertIn(key, hs)
        self.assertEqual((hs["apns_key_id"], hs["apns_team_id"]), ("ABC123DEFG", "TEAM123456"))
        self.assertEqual(hs["apns_topic"], "org.parley.test")
        self.assertEqual(hs["vapid_subject"], "mailto:push@parley.test")
        self.assertEqual((hs["hms_app_id"], hs["hms_app_secret"]), ("hms-app-1", "hms-secret-1"))
        p8 = read(hs["apns_key_file"])
        self.assertTrue(p8.startswith("-----BEGIN PRIVATE KEY-----"))
        self.assertIsInstance(self.apns_key.curve, ec.SECP256R1)
        self.assertTrue(read(hs["vapid_private_key_file"]).startswith("-----BEGIN PRIVATE KEY-----"))
        self.assertIsInstance(self.vapid_key.curve, ec.SECP256R1)
        a = self.account
        self.assertEqual(a["type"], "service_account")
        self.assertEqual(a["project_id"], "parley-test")
        self.assertEqual(a["client_email"], "push@parley-test.iam.gserviceaccount.com")
        self.assertEqual(a["token_uri"], "https://127.0.0.1:%d/fcm/token" % hs["port"])
        self.assertTrue(a["private_key"].startswith("-----BEGIN PRIVATE KEY-----"))
        self.assertTrue(a["private_key_id"])
        self.assertEqual(self.fcm_key.key_size, 2048)

    def test_tls_alpn_and_names(self):
        for offered, expected in ((["h2", "http/1.1"], "h2"), (["http/1.1"], "http/1.1")):
            for host in ("127.0.0.1", "localhost"):
                context = ssl.create_default_context(cafile=self.hs["ca_file"])
                context.set_alpn_protocols(offered)
                with socket.create_connection(("127.0.0.1", self.hs["port"]), timeout=10) as raw:
                    with context.wrap_socket(raw, server_hostname=host) as tls:
                        self.assertEqual(tls.selected_alpn_protocol(), expected)

    # --- APNs ----------------------------------------------------------------------------------

    def test_apns_accepts_and_records(self):
        token = "a1b2c3" + uuid.uuid4().hex
        before = self.c.stats()["apns_connections"]
        apns_id = str(uuid.uuid4())
        first, second = self.c.apns([token, token], self.apns_headers(**{"apns-collapse-id": "c1",
                                                                         "apns-id": apns_id}),
                                    self.APS, host="localhost")
        for result in (first, second):
            self.assertEqual((result["code"], result["version"]), (200, "2"))
            self.assertIsNone(result["body"])
            self.assertEqual(result["apns_id"], apns_id)
        self.assertEqual((first["connects"], second["connects"]), (1, 0))
        self.assertEqual(self.c.stats()["apns_connections"], before + 1)
        generated = self.c.apns(token, self.apns_headers(), self.APS)
        uuid.UUID(generated["apns_id"])
        record = self.last("apns", token)
        self.assertEqual(record["status"], 200)
        self.assertEqual(record["payload"], self.APS)
        self.assertEqual(record["http_version"], "2")
        self.assertEqual(record["headers"]["apns-topic"], "org.parley.test")
        self.assertEqual(record["headers"]["apns-push-type"], "alert")
        self.assertRegex(record["connection"], r"^127\.0\.0\.1:\d+$")
        self.assertLess(abs(record["at"] - time.time() * 1000), 60_000)
        self.assertNotIn("error", record)

    def test_apns_refusals(self):
        other = ec.generate_private_key(ec.SECP256R1())
        now = int(time.time())
        cases = [
            ("http/1.1", {}, self.APS, "--http1.1", 400, "BadProtocol"),
            ("bad signature", {"authorization": "bearer " + self.apns_jwt(key=other)}, self.APS, "--http2", 403,
             "InvalidProviderToken"),
            ("DER signature", {"authorization": "bearer " + self.apns_jwt(der=True)}, self.APS, "--http2", 403,
             "InvalidProviderToken"),
            ("wrong kid", {"authorization": "bearer " + self.apns_jwt(kid="XYZ")}, self.APS, "--http2", 403,
             "InvalidProviderToken"),
            ("wrong iss", {"authorization": "bearer " + self.apns_jwt(iss="OTHER")}, self.APS, "--http2", 403,
             "InvalidProviderToken"),
            ("iat in future", {"authorization": "bearer " + self.apns_jwt(iat=now + 600)}, self.APS, "--http2",
             403, "InvalidProviderToken"),
            ("old iat", {"authorization": "bearer " + self.apns_jwt(iat=now - 3700)}, self.APS, "--http2", 403,
             "ExpiredProviderToken"),
            ("no authorization", {"authorization": None}, self.APS, "--http2", 403, "MissingProviderToken"),
            ("wrong topic", {"apns-topic": "com.other"}, self.APS, "--http2", 400, "TopicDisallowed"),
            ("push type", {"apns-push-type": "background"}, self.APS, "--http2", 400, "InvalidPushType"),
            ("priority", {"apns-priority": "5"}, self.APS, "--http2", 400, "BadPriority"),
            ("no expiration", {"apns-expiration": None}, self.APS, "--http2", 400, "BadExpirationDate"),
            ("past expiration", {"apns-expiration": str(now - 100)}, self.APS, "--http2", 400, "BadExpirationDate"),
            ("long collapse id", {"apns-collapse-id": "x" * 65}, self.APS, "--http2", 400, "BadCollapseId"),
            ("no aps", {}, {"alert": "x"}, "--http2", 400, "BadPayload"),
            ("too large", {}, {"aps": {"alert": "x" * 4100}}, "--http2", 413, "PayloadTooLarge"),
        ]
        for name, overrides, body, http, status, reason in cases:
            with self.subTest(name):
                token = "ab" + uuid.uuid4().hex
                result = self.c.apns(token, self.apns_headers(**overrides), body, http=http)
                self.assertEqual(result["code"], status, result)
                self.assertEqual(result["body"], {"reason": reason})
                record = self.last("apns", token)
                self.assertEqual(record["status"], status)
                self.assertTrue(record["error"])
        padded = self.apns_jwt()
        header, claims, signature = padded.split(".")
        padded = ".".join([header + "=" * (-len(header) % 4 or 4), claims, signature])
        result = self.c.apns("abcd", self.apns_headers(authorization="bearer " + padded), self.APS)
        self.assertEqual(result["code"], 403)
        self.assertIn("padding", self.last("apns", "abcd")["error"])
        der_error = [r for r in self.c.received("apns") if "DER" in r.get("error", "")]
        self.assertTrue(der_error, "the DER signature's refusal should say so")

    def test_apns_token_behaviours(self):
        suffix = uuid.uuid4().hex
        dead = self.c.apns("dead" + suffix, self.apns_headers(), self.APS)
        self.assertEqual(dead["code"], 410)
        self.assertEqual(dead["body"]["reason"], "Unregistered")
        self.assertIsInstance(dead["body"]["timestamp"], int)
        bad = self.c.apns("0400" + suffix, self.apns_headers(), self.APS)
        self.assertEqual((bad["code"], bad["body"]), (400, {"reason": "BadDeviceToken"}))
        first, second = self.c.apns(["0429" + suffix] * 2, self.apns_headers(), self.APS)
        self.assertEqual((first["code"], first["body"], first["retry_after"]), (429, {"reason": "TooManyRequests"}, "1"))
        self.assertEqual(second["code"], 200)
        first, second = self.c.apns(["0500" + suffix] * 2, self.apns_headers(), self.APS)
        self.assertEqual((first["code"], first["body"]), (500, {"reason": "InternalServerError"}))
        self.assertEqual(second["code"], 200)
        first, second = self.c.apns(["0555" + suffix] * 2, self.apns_headers(), self.APS)
        for result in (first, second):
            self.assertEqual((result["code"], result["retry_after"]), (503, "1"))
        statuses = [r["status"] for r in self.c.received("apns") if r["token"] == "0429" + suffix]
        self.assertEqual(statuses, [429, 200])
        nonhex = self.c.apns("zz" + suffix, self.apns_headers(), self.APS)
        self.assertEqual((nonhex["code"], nonhex["body"]), (400, {"reason": "BadDeviceToken"}))

    # --- FCM -----------------------------------------------------------------------------------

    def test_fcm_token_and_send(self):
        before = self.c.stats()["fcm_token_requests"]
        status, _, body = self.fcm_token_request(self.fcm_assertion())
        self.assertEqual(status, 200, body)
        self.assertEqual((body["expires_in"], body["token_type"]), (3599, "Bearer"))
        self.assertEqual(self.c.stats()["fcm_token_requests"], before + 1)
        access = body["access_token"]
        token = "fcmtoken-" + uuid.uuid4().hex
        status, _, body = self.fcm_send(access, token, {"type": "message", "n": "1"})
        self.assertEqual(status, 200, body)
        self.assertRegex(body["name"], r"^projects/parley-test/messages/\S+$")
        record = self.last("fcm", token)
        self.assertEqual(record["status"], 200)
        self.assertEqual(record["payload"]["message"]["data"], {"type": "message", "n": "1"})
        self.assertEqual(record["payload"]["message"]["android"], {"priority": "high", "ttl": "3600s"})
        self.assertEqual(record["http_version"], "1.1")

    def test_fcm_token_refusals(self):
        other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        now = int(time.time())
        cases = {
            "bad signature": self.fcm_assertion(key=other),
            "wrong aud": self.fcm_assertion(aud="https://oauth2.example/token"),
            "wrong iss": self.fcm_assertion(iss="someone@else"),
            "no scope": self.fcm_assertion(scope="https://www.googleapis.com/auth/cloud-platform"),
            "expired": self.fcm_assertion(iat=now - 7200, exp=now - 3600),
            "too long": self.fcm_assertion(iat=now, exp=now + 7200),
            "future iat": self.fcm_assertion(iat=now + 600, exp=now + 1200),
        }
        for name, assertion in cases.items():
            with self.subTest(name):
                status, _, body = self.fcm_token_request(assertion)
                self.assertEqual(status, 400)
                self.assertEqual(body["error"], "invalid_grant")
                self.assertTrue(body["error_description"])
        errors = self.c.stats()["token_errors"]
        self.assertTrue(any("aud" in e for e in errors))

    def test_fcm_send_refusals(self):
        access = self.fcm_access()
        suffix = uuid.uuid4().hex
        status, _, body = self.fcm_send("ya29.unknown", "t" + suffix)
        self.assertEqual((status, body["error"]["code"], body["error"]["status"]), (401, 401, "UNAUTHENTICATED"))
        status, _, body = self.fcm_send(access, "t" + suffix, project="other-project")
        self.assertEqual(status, 403)
        status, _, body = self.fcm_send(access, "t" + suffix, {"count": 3})
        self.assertEqual((status, body["error"]["status"]), (400, "INVALID_ARGUMENT"))
        status, _, body = self.c.json("POST", "/v1/projects/parley-test/messages:send",
                                      {"message": {"token": "t" + suffix, "andriod": {}}},
                                      {"authorization": "Bearer " + access})
        self.assertEqual(status, 400)
        self.assertIn("andriod", body["error"]["message"])

        status, _, body = self.fcm_send(access, "dead" + suffix)
        self.assertEqual(status, 404)
        self.assertEqual(body, {"error": {
            "code": 404, "message": "Requested entity was not found.", "status": "NOT_FOUND",
            "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "UNREGISTERED"}]}})
        status, _, body = self.fcm_send(access, "invalid" + suffix)
        self.assertEqual((status, body["error"]["status"]), (400, "INVALID_ARGUMENT"))
        details = body["error"]["details"]
        self.assertIn({"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "INVALID_ARGUMENT"},
                      details)
        self.assertIn({"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [
            {"field": "message.token", "description": "Invalid registration token"}]}, details)
        status, headers, body = self.fcm_send(access, "busy" + suffix)
        self.assertEqual((status, headers["retry-after"], body["error"]["status"]), (429, "1", "RESOURCE_EXHAUSTED"))
        self.assertEqual(body["error"]["details"][0]["errorCode"], "QUOTA_EXCEEDED")
        self.assertEqual(self.fcm_send(access, "busy" + suffix)[0], 200)
        status, _, body = self.fcm_send(access, "fail" + suffix)
        self.assertEqual((status, body["error"]["status"]), (503, "UNAVAILABLE"))
        self.assertEqual(self.fcm_send(access, "fail" + suffix)[0], 200)
        statuses = [r["status"] for r in self.c.received("fcm") if r["token"] == "busy" + suffix]
        self.assertEqual(statuses, [429, 200])

    # --- HMS -----------------------------------------------------------------------------------

    def test_hms(self):
        before = self.c.stats()["hms_token_requests"]
        access = self.hms_access()
        self.assertEqual(self.c.stats()["hms_token_requests"], before + 1)
        status, _, body = self.c.json("POST", "/hms/token",
                                      "grant_type=client_credentials&client_id=hms-app-1&client_secret=nope")
        self.assertEqual((status, body), (400, {"error": 1101, "error_description": "invalid client"}))
        token = "hms" + uuid.uuid4().hex
        data = {"type": "message", "channel": "c1", "text": "hi"}
        status, _, body = self.hms_send(access, token, data)
        self.assertEqual((status, body["code"], body["msg"]), (200, "80000000", "Success"))
        self.assertTrue(body["requestId"])
        record = self.last("hms", token)
        self.assertEqual((record["status"], record["payload"]), (200, data))
        self.assertNotIn("error", record)
        status, _, body = self.hms_send(access, "dead" + token, data)
        self.assertEqual((status, body["code"], body["msg"]), (200, "80300007", "All the tokens are invalid"))
        self.assertTrue(self.last("hms", "dead" + token)["error"])
        status, _, body = self.hms_send(None, token, data)
        self.assertEqual((status, body["code"], body["msg"]), (401, "80200003", "OAuth token expired."))
        status, _, body = self.hms_send("hms.unknown", token, data)
        self.assertEqual(status, 401)

    # --- Web Push ------------------------------------------------------------------------------

    def test_rfc8291_vector(self):
        ua_private = ec.derive_private_key(int.from_bytes(unb64u(RFC["ua_private"]), "big"), ec.SECP256R1())
        as_private = ec.derive_private_key(int.from_bytes(unb64u(RFC["as_private"]), "big"), ec.SECP256R1())
        self.assertEqual(point(ua_private.public_key()), unb64u(RFC["ua_public"]))
        self.assertEqual(point(as_private.public_key()), unb64u(RFC["as_public"]))
        message = webpush_encrypt(RFC["plaintext"], unb64u(RFC["ua_public"]), unb64u(RFC["auth"]),
                                  as_private=as_private, salt=unb64u(RFC["salt"]), rs=4096)
        self.assertEqual(b64u(message), RFC["message"])
        plaintext = push_standin.webpush_decrypt(unb64u(RFC["message"]), ua_private, unb64u(RFC["auth"]))
        self.assertEqual(plaintext, RFC["plaintext"])

    def test_web_push_accepts_and_decrypts(self):
        sub = self.subscribe()
        self.assertTrue(sub["endpoint"].startswith(self.c.base + "/webpush/push/"))
        self.assertEqual(len(unb64u(sub["keys"]["p256dh"])), 65)
        self.assertEqual(len(unb64u(sub["keys"]["auth"])), 16)
        self.assertNotIn("=", sub["keys"]["p256dh"] + sub["keys"]["auth"])
        payload = {"type": "message", "channel": "c1", "text": "héllo ✓"}
        status, headers, _ = self.web_push(sub, json.dumps(payload).encode())
        self.assertEqual(status, 201)
        self.assertTrue(headers["location"].startswith(self.c.base + "/webpush/message/"))
        sub_id = sub["endpoint"].rsplit("/", 1)[1]
        record = self.last("web", sub_id)
        self.assertEqual((record["status"], record["payload"]), (201, payload))
        self.assertEqual(record["headers"]["urgency"], "high")
        # Padding is stripped; a padded k= is tolerated.
        body = webpush_encrypt(b'{"n":2}', unb64u(sub["keys"]["p256dh"]), unb64u(sub["keys"]["auth"]), pad=40)
        padded_k = self.vapid_header() + "="
        status, _, _ = self.web_push(sub, None, body=body, authorization=padded_k)
        self.assertEqual(status, 201)
        self.assertEqual(self.last("web", sub_id)["payload"], {"n": 2})

    def test_web_push_refusals(self):
        sub = self.subscribe()
        sub_id = sub["endpoint"].rsplit("/", 1)[1]
        other = ec.generate_private_key(ec.SECP256R1())
        now = int(time.time())
        cases = [
            ("wrong aud", {"authorization": self.vapid_header(aud="https://push.example.net")}, 403),
            ("other VAPID key", {"authorization": self.vapid_header(key=other)}, 403),
            ("bad signature", {"authorization": self.vapid_header(key=other, k_key=self.vapid_key)}, 403),
            ("expired", {"authorization": self.vapid_header(exp=now - 10)}, 403),
            ("exp beyond 24 h", {"authorization": self.vapid_header(exp=now + 25 * 3600)}, 403),
            ("wrong sub", {"authorization": self.vapid_header(sub="mailto:else@example.com")}, 403),
            ("bearer scheme", {"authorization": "Bearer x"}, 403),
            ("no TTL", {"ttl": None}, 400),
            ("aesgcm", {"content-encoding": "aesgcm"}, 400),
            ("bad urgency", {"urgency": "urgent"}, 400),
        ]
        for name, headers, status in cases:
            with self.subTest(name):
                got, _, _ = self.web_push(sub, b'{"x":1}', authorization=headers.pop("authorization", None),
                                          extra=headers)
                self.assertEqual(got, status)
                record = self.c.received("web")[-1]
                self.assertEqual((record["token"], record["status"]), (sub_id, status))
                self.assertTrue(record["error"])
        body = bytearray(webpush_encrypt(b'{"x":1}', unb64u(sub["keys"]["p256dh"]), unb64u(sub["keys"]["auth"])))
        body[-1] ^= 1
        self.assertEqual(self.web_push(sub, None, body=bytes(body))[0], 400)
        self.assertIn("decryption failed", self.c.received("web")[-1]["error"])
        wrong_auth = webpush_encrypt(b'{"x":1}', unb64u(sub["keys"]["p256dh"]), os.urandom(16))
        self.assertEqual(self.web_push(sub, None, body=wrong_auth)[0], 400)
        self.assertEqual(self.web_push(self.subscribe("?gone=1"), b'{"x":1}')[0], 410)
        self.assertEqual(self.web_push(self.subscribe("?missing=1"), b'{"x":1}')[0], 404)
        unknown = dict(sub, endpoint=self.c.base + "/webpush/push/nosuch")
        self.assertEqual(self.web_push(unknown, b'{"x":1}')[0], 404)

    def test_garbage_is_refused_not_crashed(self):
        fcm, hms = self.fcm_access(), self.hms_access()
        sub = self.subscribe()
        bodies = [b"", b"null", b"[]", b"{}", b'{"message": []}', b'{"message": {"token": 5, "data": []}}',
                  b'{"message": {"token": ["a", 3], "data": {}, "android": "x"}}', b"\xff\xfe", b"a=b&c"]
        routes = [("/v1/projects/parley-test/messages:send", {"authorization": "Bearer " + fcm}),
                  ("/hms/v1/hms-app-1/messages:send", {"authorization": "Bearer " + hms}),
                  ("/fcm/token", {}), ("/hms/token", {}),
                  (sub["endpoint"], {"authorization": self.vapid_header(), "content-encoding": "aes128gcm",
                                     "ttl": "0"})]
        for path, headers in routes:
            for body in bodies:
                with self.subTest(path=path, body=body):
                    status = self.c.http("POST", path, body, headers)[0]
                    self.assertGreaterEqual(status, 400)
                    self.assertLess(status, 500)
        self.assertEqual(self.c.stats()["internal_errors"], [])

    # --- inspection ----------------------------------------------------------------------------

    def test_zz_inspection_and_clear(self):
        self.c.apns("abcdef", self.apns_headers(), self.APS)
        providers = {r["provider"] for r in self.c.received()}
        self.assertIn("apns", providers)
        self.assertTrue(all(r["provider"] == "apns" for r in self.c.received("apns")))
        for record in self.c.received():
            self.assertEqual(set(record) >= {"provider", "token", "headers", "payload", "http_version",
                                             "connection", "at", "status"}, True, record)
        stats = self.c.stats()
        self.assertEqual(sum(stats["counts"].values()), len(self.c.received()))
        self.assertEqual(self.c.json("GET", "/received?provider=nope")[0], 400)
        self.assertEqual(self.c.http("DELETE", "/received")[0], 200)
        self.assertEqual(self.c.received(), [])
        self.assertEqual(self.c.stats()["counts"], {"apns": 0, "fcm": 0, "hms": 0, "web": 0})
        # the first-request memories are cleared too: a 0429 token is refused once more
        token = "0429" + uuid.uuid4().hex
        self.assertEqual(self.c.apns(token, self.apns_headers(), self.APS)["code"], 429)
        self.assertEqual(self.c.apns(token, self.apns_headers(), self.APS)["code"], 200)
        self.c.http("DELETE", "/received")
        self.assertEqual(self.c.apns(token, self.apns_headers(), self.APS)["code"], 429)


class QuietAndLifecycleTest(unittest.TestCase):
    def test_quiet_mode_counts_only(self):
        directory = tempfile.mkdtemp(prefix="push-standin-q-")
        proc, hs = start_standin(directory, "--quiet")
        try:
            client = Client(hs)
            key = serialization.load_pem_private_key(read(hs["apns_key_file"], "rb"), None)
            jwt = jws({"alg": "ES256", "kid": "ABC123DEFG"}, {"iss": "TEAM123456", "iat": int(time.time())},
                      es256_signer(key))
            headers = {"authorization": "bearer " + jwt, "apns-topic": "com.example.app",
                       "apns-push-type": "alert", "apns-priority": "10",
                       "apns-expiration": str(int(time.time()) + 60)}
            results = client.apns(["abcd01", "abcd02", "dead01"], headers, {"aps": {"alert": "x"}})
            self.assertEqual([r["code"] for r in results], [200, 200, 410])
            bad = dict(headers, authorization="bearer " + jwt[:-4] + "AAAA")
            self.assertEqual([r["code"] for r in client.apns(["abcd03"] * 2, bad, {"aps": {}})], [403, 403])
            self.assertEqual(client.received(), [])
            stats = client.stats()
            self.assertEqual(stats["counts"]["apns"], 5)
            self.assertEqual(stats["accepted"]["apns"], 2)
            self.assertEqual(stats["apns_connections"], 2)
        finally:
            proc.stdin.close()
            proc.wait(timeout=10)
            proc.stdout.close()
            shutil.rmtree(directory, ignore_errors=True)

    def test_sigterm_and_stdin_close(self):
        directory = tempfile.mkdtemp(prefix="push-standin-l-")
        try:
            proc, hs = start_standin(directory)
            Client(hs).stats()
            started = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            self.assertEqual(proc.wait(timeout=10), 0)
            self.assertLess(time.monotonic() - started, 5)
            proc.stdin.close()
            proc.stdout.close()

            # An idle HTTP/2 connection that the client never closes must not hold the exit.
            proc, hs = start_standin(directory)
            context = ssl.create_default_context(cafile=hs["ca_file"])
            context.set_alpn_protocols(["h2"])
            idle = context.wrap_socket(socket.create_connection(("127.0.0.1", hs["port"])),
                                       server_hostname="127.0.0.1")
            idle.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00")
            self.assertTrue(idle.recv(100))  # the server's SETTINGS
            started = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            self.assertEqual(proc.wait(timeout=10), 0)
            self.assertLess(time.monotonic() - started, 5)
            idle.close()
            proc.stdin.close()
            proc.stdout.close()

            proc, hs = start_standin(directory)
            started = time.monotonic()
            proc.stdin.close()
            self.assertEqual(proc.wait(timeout=10), 0)
            self.assertLess(time.monotonic() - started, 5)
            proc.stdout.close()
            with self.assertRaises(OSError):
                socket.create_connection(("127.0.0.1", hs["port"]), timeout=2).close()
        finally:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
