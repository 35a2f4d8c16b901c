#!/usr/bin/env python3
"""Local stand-in for the push providers (APNs, FCM HTTP v1, HMS Push Kit, Web Push).

Used by the Swift system tests (started as a subprocess) and by the push benchmark.

    python3 push_standin.py --dir DIR [--apns-topic com.example.app]
                            [--vapid-subject mailto:ops@example.com] [--quiet]
                            [--ignore-stdin]

At startup it writes into DIR a test CA (ca.pem), a server certificate for 127.0.0.1/localhost
(server.pem, server.key), an APNs signing key (apns.p8), an FCM service account (fcm.json) and a
VAPID key (vapid.pem); then serves HTTPS (ALPN h2 and http/1.1) on 127.0.0.1 at an OS-chosen
port and prints exactly one JSON line (the handshake) to stdout. It exits when its stdin closes
(unless --ignore-stdin) or on SIGTERM/SIGINT.

Needs: hypercorn (brings h2), cryptography. Nothing else.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import datetime
import ipaddress
import json
import os
import re
import secrets
import signal
import socket
import ssl
import sys
import threading
import time
import traceback
import uuid
from urllib.parse import parse_qs

from cryptography import x509
from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

APNS_KEY_ID = "ABC123DEFG"
APNS_TEAM_ID = "TEAM123456"
FCM_PROJECT_ID = "parley-test"
FCM_CLIENT_EMAIL = "push@parley-test.iam.gserviceaccount.com"
FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
FCM_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer"
HMS_APP_ID = "hms-app-1"
HMS_APP_SECRET = "hms-secret-1"
PROVIDERS = ("apns", "fcm", "hms", "web")

MAX_BODY = 1 << 20  # bytes read from any request body; more is answered 413
JWT_CACHE_MAX = 50_000

# ---------------------------------------------------------------------------------------------
# Encoding and JOSE helpers
# ---------------------------------------------------------------------------------------------

_B64URL = re.compile(r"[A-Za-z0-9_-]*")


def b64url_encode(data: bytes) -> str:
    """base64url without padding (RFC 7515 §2)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """Strict base64url: alphabet A-Z a-z 0-9 - _ only, no '=' padding (as JWS requires)."""
    if not _B64URL.fullmatch(text):
        bad = sorted({c for c in text if not (c.isascii() and (c.isalnum() or c in "-_"))})
        raise ValueError(
            "not base64url without padding (found %s; use '-' and '_', never '+', '/' or '=')"
            % "".join(bad)
        )
    if len(text) % 4 == 1:
        raise ValueError("impossible base64url length %d" % len(text))
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url_decode_lenient(text: str) -> bytes:
    """base64url that tolerates trailing '=' padding (for the VAPID k= parameter)."""
    return b64url_decode(text.strip().rstrip("="))


def uncompressed_point(public_key: ec.EllipticCurvePublicKey) -> bytes:
    return public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


class JWTError(Exception):
    pass


def parse_jws(token: str):
    """Split a compact JWS into (header, claims, signing input, signature); raise JWTError."""
    parts = token.split(".")
    if len(parts) != 3:
        raise JWTError("a JWT has 3 dot-separated parts, got %d" % len(parts))
    decoded = []
    for name, part in zip(("header", "claims", "signature"), parts):
        try:
            decoded.append(b64url_decode(part))
        except ValueError as error:
            raise JWTError("JWT %s: %s" % (name, error)) from None
    try:
        header = json.loads(decoded[0])
        claims = json.loads(decoded[1])
    except ValueError as error:
        raise JWTError("JWT header or claims are not JSON: %s" % error) from None
    if not isinstance(header, dict) or not isinstance(claims, dict):
        raise JWTError("JWT header and claims must be JSON objects")
    return header, claims, (parts[0] + "." + parts[1]).encode("ascii"), decoded[2]


def verify_es256(public_key: ec.EllipticCurvePublicKey, signing_input: bytes, signature: bytes):
    if len(signature) != 64:
        hint = " (it looks DER-encoded: convert to raw r||s)" if signature[:1] == b"\x30" else ""
        raise JWTError(
            "ES256 signature must be the 64-byte raw r||s of JWS (RFC 7518 §3.4), got %d bytes%s"
            % (len(signature), hint)
        )
    r = int.from_bytes(signature[:32], "big")
    s = int.from_bytes(signature[32:], "big")
    try:
        public_key.verify(encode_dss_signature(r, s), signing_input, ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise JWTError("ES256 signature does not verify") from None


def verify_rs256(public_key: rsa.RSAPublicKey, signing_input: bytes, signature: bytes):
    try:
        public_key.verify(signature, signing_input, padding.PKCS1v15(), hashes.SHA256())
    except InvalidSignature:
        raise JWTError("RS256 signature does not verify") from None


def numeric_date(claims: dict, name: str) -> float:
    value = claims.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise JWTError("claim %r must be a NumericDate (seconds since the epoch), got %r" % (name, value))
    return value


# ---------------------------------------------------------------------------------------------
# Web Push (RFC 8291 / RFC 8188 aes128gcm)
# ---------------------------------------------------------------------------------------------


def webpush_decrypt(body: bytes, ua_private: ec.EllipticCurvePrivateKey, auth_secret: bytes) -> bytes:
    """Decrypt a single-record aes128gcm Web Push message; return the plaintext without padding."""
    if len(body) < 21:
        raise ValueError("body (%d bytes) is shorter than the aes128gcm header" % len(body))
    salt = body[:16]
    rs = int.from_bytes(body[16:20], "big")
    idlen = body[20]
    keyid = body[21 : 21 + idlen]
    ciphertext = body[21 + idlen :]
    if idlen != 65 or len(keyid) != 65 or keyid[0] != 4:
        raise ValueError(
            "header keyid must be the application server's 65-byte uncompressed ephemeral "
            "public key (idlen 65), got idlen %d" % idlen
        )
    if rs < 18:
        raise ValueError("record size %d is below the minimum 18" % rs)
    if len(ciphertext) < 17:
        raise ValueError("ciphertext (%d bytes) is shorter than tag plus delimiter" % len(ciphertext))
    if len(ciphertext) > rs:
        raise ValueError(
            "ciphertext (%d bytes) is longer than the record size %d: only one record is supported"
            % (len(ciphertext), rs)
        )
    try:
        as_public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), keyid)
    except ValueError:
        raise ValueError("keyid is not a point on P-256") from None
    shared = ua_private.exchange(ec.ECDH(), as_public)
    ua_public = uncompressed_point(ua_private.public_key())
    ikm = HKDF(
        algorithm=hashes.SHA256(), length=32, salt=auth_secret,
        info=b"WebPush: info\x00" + ua_public + keyid,
    ).derive(shared)
    cek = HKDF(
        algorithm=hashes.SHA256(), length=16, salt=salt, info=b"Content-Encoding: aes128gcm\x00"
    ).derive(ikm)
    nonce = HKDF(
        algorithm=hashes.SHA256(), length=12, salt=salt, info=b"Content-Encoding: nonce\x00"
    ).derive(ikm)
    try:
        plaintext = AESGCM(cek).decrypt(nonce, ciphertext, None)
    except InvalidTag:
        raise ValueError("AES-128-GCM authentication failed (wrong keys, salt or derivation)") from None
    stripped = plaintext.rstrip(b"\x00")
    if not stripped or stripped[-1] != 2:
        raise ValueError(
            "padding delimiter of the last record (0x02) not found after the plaintext "
            "(0x01 marks a non-last record)"
        )
    return stripped[:-1]


# ---------------------------------------------------------------------------------------------
# Key material
# ---------------------------------------------------------------------------------------------


def _pkcs8_pem(key) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _write(path: str, data: bytes, private: bool = False):
    tmp = path + ".tmp"
    with open(tmp, "wb") as handle:
        handle.write(data)
    if private:
        os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def generate_material(directory: str, port: int) -> dict:
    os.makedirs(directory, exist_ok=True)
    directory = os.path.abspath(directory)
    now = datetime.datetime.now(datetime.timezone.utc)
    files = {
        name: os.path.join(directory, name)
        for name in ("ca.pem", "server.pem", "server.key", "apns.p8", "fcm.json", "vapid.pem")
    }

    # Test certificate authority and the server certificate it signs.
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Parley push stand-in"),
        x509.NameAttribute(NameOID.COMMON_NAME, "Parley push stand-in test CA"),
    ])
    ca_ski = x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key())
    ca_cert = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True, content_commitment=False, key_encipherment=False,
                data_encipherment=False, key_agreement=False, key_cert_sign=True, crl_sign=True,
                encipher_only=False, decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(ca_ski, critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    server_key = ec.generate_private_key(ec.SECP256R1())
    server_cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
        .issuer_name(ca_name)
        .public_key(server_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(
            x509.SubjectAlternativeName([
                x509.IPAddress(ipaddress.IPv4Address("127.0.0.1")),
                x509.DNSName("localhost"),
            ]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True, content_commitment=False, key_encipherment=False,
                data_encipherment=False, key_agreement=False, key_cert_sign=False, crl_sign=False,
                encipher_only=False, decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski), critical=False
        )
        .add_extension(
            x509.SubjectKeyIdentifier.from_public_key(server_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    _write(files["ca.pem"], ca_cert.public_bytes(serialization.Encoding.PEM))
    _write(files["server.pem"], server_cert.public_bytes(serialization.Encoding.PEM))
    _write(files["server.key"], _pkcs8_pem(server_key), private=True)

    apns_key = ec.generate_private_key(ec.SECP256R1())
    _write(files["apns.p8"], _pkcs8_pem(apns_key), private=True)

    fcm_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    token_uri = "https://127.0.0.1:%d/fcm/token" % port
    service_account = {
        "type": "service_account",
        "project_id": FCM_PROJECT_ID,
        "private_key_id": secrets.token_hex(20),
        "private_key": _pkcs8_pem(fcm_key).decode("ascii"),
        "client_email": FCM_CLIENT_EMAIL,
        "client_id": str(secrets.randbelow(10**20)),
        "auth_uri": "https://127.0.0.1:%d/fcm/auth" % port,
        "token_uri": token_uri,
        "auth_provider_x509_cert_url": "https://127.0.0.1:%d/fcm/certs" % port,
        "client_x509_cert_url": "https://127.0.0.1:%d/fcm/certs/push" % port,
        "universe_domain": "googleapis.com",
    }
    _write(files["fcm.json"], (json.dumps(service_account, indent=2) + "\n").encode(), private=True)

    vapid_key = ec.generate_private_key(ec.SECP256R1())
    _write(files["vapid.pem"], _pkcs8_pem(vapid_key), private=True)

    return {
        "files": files,
        "apns_public": apns_key.public_key(),
        "fcm_public": fcm_key.public_key(),
        "fcm_private_key_id": service_account["private_key_id"],
        "fcm_token_uri": token_uri,
        "vapid_public": uncompressed_point(vapid_key.public_key()),
    }


# ---------------------------------------------------------------------------------------------
# The ASGI application
# ---------------------------------------------------------------------------------------------


def _json(status: int, obj, headers=()):
    return status, [("content-type", "application/json")] + list(headers), json.dumps(obj).encode()


def _bearer(headers: dict):
    match = re.fullmatch(r"[Bb][Ee][Aa][Rr][Ee][Rr] +(\S+)", headers.get("authorization", "").strip())
    return match.group(1) if match else None


def _parse_json(body: bytes):
    try:
        return json.loads(body)
    except ValueError:
        return None


_TTL = re.compile(r"\d+(\.\d{1,9})?s")
_FCM_TOP = {"message", "validate_only", "validateOnly"}
_FCM_MESSAGE = {
    "name", "data", "notification", "android", "webpush", "apns", "fcm_options", "fcmOptions",
    "token", "topic", "condition",
}
_FCM_ANDROID = {
    "collapse_key", "collapseKey", "priority", "ttl", "restricted_package_name",
    "restrictedPackageName", "data", "notification", "fcm_options", "fcmOptions",
    "direct_boot_ok", "directBootOk", "bandwidth_constrained_ok", "bandwidthConstrainedOk",
    "restricted_satellite_ok", "restrictedSatelliteOk",
}
_FCM_ERROR_TYPE = "type.googleapis.com/google.firebase.fcm.v1.FcmError"


def _fcm_error(status: int, code: str, message: str, error_code: str | None = None,
               extra_details=(), headers=()):
    details = []
    if error_code:
        details.append({"@type": _FCM_ERROR_TYPE, "errorCode": error_code})
    details.extend(extra_details)
    error = {"code": status, "message": message, "status": code}
    if details:
        error["details"] = details
    return _json(status, {"error": error}, headers)


class Subscription:
    __slots__ = ("id", "private_key", "public_bytes", "auth", "mode")

    def __init__(self, mode: str):
        self.id = secrets.token_urlsafe(12)
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.public_bytes = uncompressed_point(self.private_key.public_key())
        self.auth = os.urandom(16)
        self.mode = mode


class StandIn:
    def __init__(self, port: int, material: dict, apns_topic: str, vapid_subject: str, quiet: bool):
        self.port = port
        self.origin = "https://127.0.0.1:%d" % port
        self.apns_topic = apns_topic
        self.vapid_subject = vapid_subject
        self.quiet = quiet
        self.apns_public = material["apns_public"]
        self.fcm_public = material["fcm_public"]
        self.fcm_private_key_id = material["fcm_private_key_id"]
        self.fcm_token_uri = material["fcm_token_uri"]
        self.vapid_public = material["vapid_public"]
        self.jwt_cache: dict = {}
        self.subscriptions: dict[str, Subscription] = {}
        self.fcm_access: dict[str, float] = {}
        self.hms_access: dict[str, float] = {}
        self.message_counter = 0
        self.clear()

    # --- records -------------------------------------------------------------------------------

    def clear(self):
        self.records: list[dict] = []
        self.counts = {p: 0 for p in PROVIDERS}
        self.accepted = {p: 0 for p in PROVIDERS}
        self.first_seen: set = set()
        self.fcm_token_requests = 0
        self.hms_token_requests = 0
        self.apns_connections: set = set()
        self.token_errors: list[str] = []
        self.internal_errors: list[str] = []

    def record(self, provider, req, status, token=None, payload=None, error=None, **extra):
        self.counts[provider] += 1
        if error is None and status in (200, 201):
            self.accepted[provider] += 1
        if self.quiet:
            return
        entry = {
            "provider": provider,
            "token": token,
            "headers": req["headers"],
            "payload": payload,
            "http_version": req["http_version"],
            "connection": req["connection"],
            "at": req["at"],
            "status": status,
        }
        if error is not None:
            entry["error"] = error
        entry.update(extra)
        self.records.append(entry)

    def first_time(self, provider, token) -> bool:
        key = (provider, token)
        if key in self.first_seen:
            return False
        self.first_seen.add(key)
        return True

    def token_error(self, what: str):
        self.token_errors.append(what)
        del self.token_errors[:-50]

    def verified_jws(self, kind, token, verify):
        """Parse and verify a JWS; in --quiet mode the outcome is cached per distinct token."""
        if self.quiet:
            hit = self.jwt_cache.get((kind, token))
            if hit is not None:
                if isinstance(hit, str):
                    raise JWTError(hit)
                return hit
        try:
            result = verify(token)
        except JWTError as error:
            if self.quiet:
                self._cache((kind, token), str(error))
            raise
        if self.quiet:
            self._cache((kind, token), result)
        return result

    def _cache(self, key, value):
        if len(self.jwt_cache) >= JWT_CACHE_MAX:
            self.jwt_cache.clear()
        self.jwt_cache[key] = value

    # --- ASGI ----------------------------------------------------------------------------------

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        at = int(time.time() * 1000)
        chunks, size, too_big = [], 0, False
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            data = message.get("body", b"")
            if not too_big:
                size += len(data)
                if size > MAX_BODY:
                    too_big = True
                    chunks = []
                else:
                    chunks.append(data)
            if not message.get("more_body", False):
                break
        headers: dict[str, str] = {}
        for raw_name, raw_value in scope["headers"]:
            name = raw_name.decode("latin-1").lower()
            value = raw_value.decode("latin-1")
            headers[name] = headers[name] + ", " + value if name in headers else value
        client = scope.get("client") or ("?", 0)
        req = {
            "method": scope["method"],
            "path": scope["path"],
            "query": parse_qs(scope.get("query_string", b"").decode("latin-1")),
            "headers": headers,
            "http_version": scope.get("http_version", "1.1"),
            "connection": "%s:%s" % (client[0], client[1]),
            "at": at,
        }
        try:
            if too_big:
                status, out_headers, out_body = _json(413, {"reason": "PayloadTooLarge"})
            else:
                status, out_headers, out_body = self.route(req, b"".join(chunks))
        except Exception:  # answer 500 rather than drop the stream; keep the cause for /stats
            self.internal_errors.append(traceback.format_exc(limit=5))
            del self.internal_errors[:-20]
            status, out_headers, out_body = _json(500, {"error": "stand-in internal error"})
        await send({
            "type": "http.response.start",
            "status": status,
            "headers": [(n.encode("latin-1"), str(v).encode("latin-1")) for n, v in out_headers],
        })
        await send({"type": "http.response.body", "body": out_body})

    def route(self, req, body):
        method, path = req["method"], req["path"]
        if method == "POST":
            if path.startswith("/3/device/"):
                return self.apns(req, body, path[len("/3/device/"):])
            match = re.fullmatch(r"/v1/projects/([^/]+)/messages:send", path)
            if match:
                return self.fcm_send(req, body, match.group(1))
            if path == "/fcm/token":
                return self.fcm_token(req, body)
            if path == "/hms/token":
                return self.hms_token(req, body)
            match = re.fullmatch(r"/hms/v1/([^/]+)/messages:send", path)
            if match:
                return self.hms_send(req, body, match.group(1))
            if path == "/webpush/new":
                return self.webpush_new(req)
            if path.startswith("/webpush/push/"):
                return self.webpush_push(req, body, path[len("/webpush/push/"):])
            if path == "/control/expire-tokens":
                self.fcm_access.clear()
                self.hms_access.clear()
                return _json(200, {"expired": True})
        if path == "/received":
            if method == "GET":
                provider = req["query"].get("provider", [None])[0]
                if provider is not None and provider not in PROVIDERS:
                    return _json(400, {"error": "provider must be one of %s" % ", ".join(PROVIDERS)})
                # `token`: one device's pushes only (a run's records outgrow one answer).
                token = req["query"].get("token", [None])[0]
                pushes = [r for r in self.records
                          if (provider is None or r["provider"] == provider) and (token is None or r.get("token") == token)]
                return _json(200, {"pushes": pushes})
            if method == "DELETE":
                self.clear()
                return _json(200, {"cleared": True})
        if path == "/stats" and method == "GET":
            return _json(200, {
                "fcm_token_requests": self.fcm_token_requests,
                "hms_token_requests": self.hms_token_requests,
                "apns_connections": len(self.apns_connections),
                "counts": dict(self.counts),
                "accepted": dict(self.accepted),
                "token_errors": list(self.token_errors),
                "internal_errors": list(self.internal_errors),
            })
        if path.startswith("/3/"):
            return _json(404 if method == "POST" else 405,
                         {"reason": "BadPath" if method == "POST" else "MethodNotAllowed"})
        return _json(404, {"error": "no route for %s %s" % (method, path)})

    # --- APNs ----------------------------------------------------------------------------------

    def _apns_verify(self, token):
        header, claims, signing_input, signature = parse_jws(token)
        if header.get("alg") != "ES256":
            raise JWTError("JWT header alg must be ES256, got %r" % header.get("alg"))
        if header.get("kid") != APNS_KEY_ID:
            raise JWTError("JWT header kid must be %r, got %r" % (APNS_KEY_ID, header.get("kid")))
        verify_es256(self.apns_public, signing_input, signature)
        return header, claims

    def apns(self, req, body, token):
        headers = req["headers"]
        apns_id = headers.get("apns-id") or str(uuid.uuid4())
        payload = _parse_json(body)
        self.apns_connections.add(req["connection"])

        def refuse(status, reason, error, extra=(), timestamp=False):
            self.record("apns", req, status, token=token, payload=payload, error=error, reason=reason)
            answer = {"reason": reason}
            if timestamp:
                answer["timestamp"] = req["at"]
            return _json(status, answer, [("apns-id", apns_id)] + list(extra))

        if req["http_version"] != "2":
            return refuse(400, "BadProtocol", "APNs needs HTTP/2, request was HTTP/%s" % req["http_version"])
        if not token:
            return refuse(400, "MissingDeviceToken", "no device token in the path")
        if not re.fullmatch(r"[0-9a-fA-F]+", token):
            return refuse(400, "BadDeviceToken", "device token must be hex")
        if "apns-id" in headers:
            try:
                uuid.UUID(headers["apns-id"])
            except ValueError:
                return refuse(400, "BadMessageId", "apns-id must be a UUID")
        if "authorization" not in headers:
            return refuse(403, "MissingProviderToken", "no authorization header")
        jwt = _bearer(headers)
        if jwt is None:
            return refuse(403, "InvalidProviderToken", "authorization must be 'bearer <JWT>'")
        try:
            _, claims = self.verified_jws("apns", jwt, self._apns_verify)
            if claims.get("iss") != APNS_TEAM_ID:
                raise JWTError("claim iss must be the team id %r, got %r" % (APNS_TEAM_ID, claims.get("iss")))
            iat = numeric_date(claims, "iat")
        except JWTError as error:
            return refuse(403, "InvalidProviderToken", str(error))
        now = time.time()
        if iat > now + 60:
            return refuse(403, "InvalidProviderToken", "claim iat is %ds in the future" % (iat - now))
        if iat < now - 3600:
            return refuse(403, "ExpiredProviderToken", "claim iat is older than one hour")
        topic = headers.get("apns-topic")
        if topic is None:
            return refuse(400, "MissingTopic", "no apns-topic header")
        if topic != self.apns_topic:
            return refuse(400, "TopicDisallowed", "apns-topic must be %r, got %r" % (self.apns_topic, topic))
        if headers.get("apns-push-type") != "alert":
            return refuse(400, "InvalidPushType",
                          "apns-push-type must be 'alert', got %r" % headers.get("apns-push-type"))
        if headers.get("apns-priority") != "10":
            return refuse(400, "BadPriority", "apns-priority must be '10', got %r" % headers.get("apns-priority"))
        expiration = headers.get("apns-expiration")
        if expiration is None or not re.fullmatch(r"\d+", expiration) or int(expiration) < int(now):
            return refuse(400, "BadExpirationDate",
                          "apns-expiration must be integer unix seconds not in the past, got %r" % expiration)
        collapse = headers.get("apns-collapse-id")
        if collapse is not None and len(collapse.encode("latin-1")) > 64:
            return refuse(400, "BadCollapseId", "apns-collapse-id longer than 64 bytes")
        if not body:
            return refuse(400, "PayloadEmpty", "empty body")
        if len(body) > 4096:
            return refuse(413, "PayloadTooLarge", "body is %d bytes, more than 4096" % len(body))
        if not isinstance(payload, dict) or not isinstance(payload.get("aps"), dict):
            return refuse(400, "BadPayload", "body must be a JSON object with an 'aps' dictionary")

        lowered = token.lower()
        if lowered.startswith("dead"):
            return refuse(410, "Unregistered", "dead token", timestamp=True)
        if lowered.startswith("0400"):
            return refuse(400, "BadDeviceToken", "0400 token")
        if lowered.startswith("0429") and self.first_time("apns", lowered):
            return refuse(429, "TooManyRequests", "first request for a 0429 token", [("retry-after", "1")])
        if lowered.startswith("0500") and self.first_time("apns", lowered):
            return refuse(500, "InternalServerError", "first request for a 0500 token")
        if lowered.startswith("0555"):
            return refuse(503, "ServiceUnavailable", "0555 token", [("retry-after", "1")])
        self.record("apns", req, 200, token=token, payload=payload, apns_id=apns_id)
        return 200, [("apns-id", apns_id)], b""

    # --- FCM -----------------------------------------------------------------------------------

    def _fcm_verify(self, token):
        header, claims, signing_input, signature = parse_jws(token)
        if header.get("alg") != "RS256":
            raise JWTError("JWT header alg must be RS256, got %r" % header.get("alg"))
        if "kid" in header and header["kid"] != self.fcm_private_key_id:
            raise JWTError("JWT header kid must be the service account's private_key_id")
        verify_rs256(self.fcm_public, signing_input, signature)
        return header, claims

    def fcm_token(self, req, body):
        self.fcm_token_requests += 1
        form = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)

        def bad(description, error="invalid_grant"):
            self.token_error("fcm: " + description)
            return _json(400, {"error": error, "error_description": description})

        grant = form.get("grant_type", [None])[0]
        if grant != FCM_GRANT_TYPE:
            return bad("grant_type must be %s, got %r" % (FCM_GRANT_TYPE, grant), "unsupported_grant_type")
        assertion = form.get("assertion", [None])[0]
        if not assertion:
            return bad("no assertion", "invalid_request")
        try:
            _, claims = self.verified_jws("fcm", assertion, self._fcm_verify)
            if claims.get("iss") != FCM_CLIENT_EMAIL:
                raise JWTError("claim iss must be %r, got %r" % (FCM_CLIENT_EMAIL, claims.get("iss")))
            if claims.get("aud") != self.fcm_token_uri:
                raise JWTError("claim aud must be the token_uri %r, got %r" % (self.fcm_token_uri, claims.get("aud")))
            scope = claims.get("scope")
            if not isinstance(scope, str) or FCM_SCOPE not in scope.split():
                raise JWTError("claim scope must contain %s, got %r" % (FCM_SCOPE, scope))
            iat = numeric_date(claims, "iat")
            exp = numeric_date(claims, "exp")
            now = time.time()
            if iat > now + 60:
                raise JWTError("claim iat is %ds in the future" % (iat - now))
            if exp <= now:
                raise JWTError("claim exp is in the past")
            if exp - iat > 3600:
                raise JWTError("exp - iat is %ds, more than 3600" % (exp - iat))
        except JWTError as error:
            return bad(str(error))
        access = "ya29.standin-" + secrets.token_urlsafe(32)
        self.fcm_access[access] = time.time() + 3599
        return _json(200, {"access_token": access, "expires_in": 3599, "token_type": "Bearer"})

    def fcm_send(self, req, body, project):
        payload = _parse_json(body)
        message = payload.get("message") if isinstance(payload, dict) else None
        token = message.get("token") if isinstance(message, dict) else None

        def refuse(response, error):
            self.record("fcm", req, response[0], token=token, payload=payload, error=error)
            return response

        def invalid(message_text, field=None):
            extra = ()
            if field:
                extra = ({"@type": "type.googleapis.com/google.rpc.BadRequest",
                          "fieldViolations": [{"field": field, "description": message_text}]},)
            return refuse(_fcm_error(400, "INVALID_ARGUMENT", message_text, None, extra), message_text)

        access = _bearer(req["headers"])
        if access is None or self.fcm_access.get(access, 0) <= time.time():
            return refuse(_fcm_error(401, "UNAUTHENTICATED",
                                     "Request had invalid authentication credentials. Expected OAuth 2 "
                                     "access token, login cookie or other valid authentication credential."),
                          "missing, unknown or expired access token")
        if project != FCM_PROJECT_ID:
            return refuse(_fcm_error(403, "PERMISSION_DENIED", "Permission denied for project %s" % project,
                                     "SENDER_ID_MISMATCH"), "project must be %s" % FCM_PROJECT_ID)
        if not isinstance(payload, dict):
            return invalid("Invalid JSON payload received: body is not a JSON object.")
        for key in payload:
            if key not in _FCM_TOP:
                return invalid("Invalid JSON payload received. Unknown name \"%s\": Cannot find field." % key)
        if not isinstance(message, dict):
            return invalid("message is required", "message")
        for key in message:
            if key not in _FCM_MESSAGE:
                return invalid("Invalid JSON payload received. Unknown name \"%s\" at 'message': "
                               "Cannot find field." % key)
        if not isinstance(token, str) or not token:
            return invalid("message.token is required (a string)", "message.token")
        data = message.get("data")
        if data is not None:
            if not isinstance(data, dict):
                return invalid("Invalid value at 'message.data': must be a map of strings", "message.data")
            for index, (key, value) in enumerate(data.items()):
                if not isinstance(value, str):
                    return invalid("Invalid value at 'message.data[%d].value' (TYPE_STRING), %s"
                                   % (index, json.dumps(value)), "message.data[%d].value" % index)
        android = message.get("android")
        if android is not None:
            if not isinstance(android, dict):
                return invalid("Invalid value at 'message.android': must be an object", "message.android")
            for key in android:
                if key not in _FCM_ANDROID:
                    return invalid("Invalid JSON payload received. Unknown name \"%s\" at "
                                   "'message.android': Cannot find field." % key)
            priority = android.get("priority")
            if priority is not None and priority not in ("high", "normal", "HIGH", "NORMAL"):
                return invalid("Invalid value at 'message.android.priority': %r" % priority,
                               "message.android.priority")
            ttl = android.get("ttl")
            if ttl is not None and not (isinstance(ttl, str) and _TTL.fullmatch(ttl)):
                return invalid("Invalid value at 'message.android.ttl' (type.googleapis.com/"
                               "google.protobuf.Duration), %r: must be like \"3600s\"" % ttl,
                               "message.android.ttl")

        if token.startswith("dead"):
            return refuse(_fcm_error(404, "NOT_FOUND", "Requested entity was not found.", "UNREGISTERED"),
                          "dead token")
        if token.startswith("invalid"):
            return refuse(_fcm_error(
                400, "INVALID_ARGUMENT", "The registration token is not a valid FCM registration token",
                "INVALID_ARGUMENT",
                ({"@type": "type.googleapis.com/google.rpc.BadRequest",
                  "fieldViolations": [{"field": "message.token", "description": "Invalid registration token"}]},),
            ), "invalid token")
        if token.startswith("busy") and self.first_time("fcm", token):
            return refuse(_fcm_error(429, "RESOURCE_EXHAUSTED", "Quota exceeded for sending messages.",
                                     "QUOTA_EXCEEDED", headers=[("retry-after", "1")]),
                          "first request for a busy token")
        if token.startswith("fail") and self.first_time("fcm", token):
            return refuse(_fcm_error(503, "UNAVAILABLE", "The service is currently unavailable.", "UNAVAILABLE"),
                          "first request for a fail token")
        self.message_counter += 1
        name = "projects/%s/messages/%d" % (project, self.message_counter)
        self.record("fcm", req, 200, token=token, payload=payload, name=name)
        return _json(200, {"name": name})

    # --- HMS -----------------------------------------------------------------------------------

    def hms_token(self, req, body):
        self.hms_token_requests += 1
        form = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
        grant = form.get("grant_type", [None])[0]
        if grant != "client_credentials":
            self.token_error("hms: grant_type must be client_credentials, got %r" % grant)
            return _json(400, {"error": 1102, "error_description": "missing required param: grant_type"})
        if (form.get("client_id", [None])[0] != HMS_APP_ID
                or form.get("client_secret", [None])[0] != HMS_APP_SECRET):
            self.token_error("hms: wrong client_id or client_secret")
            return _json(400, {"error": 1101, "error_description": "invalid client"})
        access = "hms." + secrets.token_urlsafe(32)
        self.hms_access[access] = time.time() + 3600
        return _json(200, {"access_token": access, "expires_in": 3600, "token_type": "Bearer"})

    def hms_send(self, req, body, app_id):
        request_id = "%d%06d" % (req["at"], secrets.randbelow(10**6))
        full = _parse_json(body)
        message = full.get("message") if isinstance(full, dict) else None
        tokens = message.get("token") if isinstance(message, dict) else None
        token = tokens[0] if isinstance(tokens, list) and len(tokens) == 1 else tokens
        data = message.get("data") if isinstance(message, dict) else None
        payload = _parse_json(data.encode()) if isinstance(data, str) else None
        if payload is None:
            payload = data

        def refuse(status, code, msg, error):
            self.record("hms", req, status, token=token, payload=payload, error=error, body=full, code=code)
            return _json(status, {"code": code, "msg": msg, "requestId": request_id})

        access = _bearer(req["headers"])
        if access is None or self.hms_access.get(access, 0) <= time.time():
            return refuse(401, "80200003", "OAuth token expired.", "missing, unknown or expired access token")
        if app_id != HMS_APP_ID:
            return refuse(401, "80200001", "Oauth authentication error", "app id must be %s" % HMS_APP_ID)
        if not isinstance(full, dict) or not isinstance(message, dict):
            return refuse(400, "80100003", "Illegal payload", "body must be {\"message\": {...}}")
        if "validate_only" in full and not isinstance(full["validate_only"], bool):
            return refuse(400, "80100003", "Illegal payload", "validate_only must be a boolean")
        if data is not None and not isinstance(data, str):
            return refuse(400, "80100003", "Illegal payload, data must be a string", "message.data must be a string")
        if (not isinstance(tokens, list) or not 1 <= len(tokens) <= 1000
                or not all(isinstance(t, str) and t for t in tokens)):
            return refuse(400, "80100003", "Illegal payload, token must be a list of strings",
                          "message.token must be a list of 1 to 1000 strings")
        android = message.get("android")
        if android is not None:
            if not isinstance(android, dict):
                return refuse(400, "80100003", "Illegal payload", "message.android must be an object")
            urgency = android.get("urgency")
            if urgency is not None and urgency not in ("HIGH", "NORMAL"):
                return refuse(400, "80100003", "Illegal payload, urgency", "android.urgency must be HIGH or NORMAL")
            ttl = android.get("ttl")
            if ttl is not None and not (isinstance(ttl, str) and _TTL.fullmatch(ttl)):
                return refuse(400, "80100003", "Illegal payload, ttl", "android.ttl must be like \"3600s\"")
        if all(t.startswith("dead") for t in tokens):
            return refuse(200, "80300007", "All the tokens are invalid", "dead token")
        self.record("hms", req, 200, token=token, payload=payload, body=full, code="80000000")
        return _json(200, {"code": "80000000", "msg": "Success", "requestId": request_id})

    # --- Web Push ------------------------------------------------------------------------------

    def webpush_new(self, req):
        query = req["query"]
        mode = "ok"
        if query.get("gone", ["0"])[0] not in ("", "0"):
            mode = "gone"
        elif query.get("missing", ["0"])[0] not in ("", "0"):
            mode = "missing"
        subscription = Subscription(mode)
        self.subscriptions[subscription.id] = subscription
        return _json(200, {
            "endpoint": "%s/webpush/push/%s" % (self.origin, subscription.id),
            "keys": {"p256dh": b64url_encode(subscription.public_bytes), "auth": b64url_encode(subscription.auth)},
        })

    def _vapid_verify(self, key_and_token):
        key_bytes, token = key_and_token
        header, claims, signing_input, signature = parse_jws(token)
        if header.get("alg") != "ES256":
            raise JWTError("JWT header alg must be ES256, got %r" % header.get("alg"))
        try:
            public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key_bytes)
        except ValueError:
            raise JWTError("k is not a P-256 point") from None
        verify_es256(public_key, signing_input, signature)
        return header, claims

    def webpush_push(self, req, body, sub_id):
        headers = req["headers"]
        subscription = self.subscriptions.get(sub_id)

        def refuse(status, error, payload=None):
            self.record("web", req, status, token=sub_id, payload=payload, error=error)
            return _json(status, {"code": status, "errno": status, "error": error, "message": error})

        if subscription is None:
            return refuse(404, "no such subscription")
        authorization = headers.get("authorization", "")
        match = re.fullmatch(r"\s*[Vv][Aa][Pp][Ii][Dd]\s+(.*)", authorization)
        if not match:
            return refuse(403, "authorization must be 'vapid t=<JWT>, k=<key>' (RFC 8292), got %r"
                          % authorization[:40])
        params = {}
        for part in match.group(1).split(","):
            name, sep, value = part.strip().partition("=")
            if sep:
                params[name.strip().lower()] = value.strip()
        if "t" not in params or "k" not in params:
            return refuse(403, "authorization needs both t= and k=")
        try:
            key_bytes = b64url_decode_lenient(params["k"])
        except ValueError as error:
            return refuse(403, "k: %s" % error)
        if len(key_bytes) != 65 or key_bytes[0] != 4:
            return refuse(403, "k must be the 65-byte uncompressed P-256 public key, got %d bytes" % len(key_bytes))
        try:
            _, claims = self.verified_jws("vapid", (key_bytes, params["t"]),
                                          lambda kt: self._vapid_verify(kt))
            exp = numeric_date(claims, "exp")
        except JWTError as error:
            return refuse(403, str(error))
        if key_bytes != self.vapid_public:
            return refuse(403, "k is not the public key of vapid.pem")
        if claims.get("aud") != self.origin:
            return refuse(403, "claim aud must be the endpoint's origin %r, got %r" % (self.origin, claims.get("aud")))
        now = time.time()
        if exp <= now:
            return refuse(403, "claim exp is in the past")
        if exp > now + 86400:
            return refuse(403, "claim exp is more than 24 hours ahead")
        sub = claims.get("sub")
        if not isinstance(sub, str) or not (sub.startswith("mailto:") or sub.startswith("https:")):
            return refuse(403, "claim sub must be a mailto: or https: URI, got %r" % sub)
        if sub != self.vapid_subject:
            return refuse(403, "claim sub must be %r, got %r" % (self.vapid_subject, sub))
        if headers.get("content-encoding") != "aes128gcm":
            return refuse(400, "content-encoding must be aes128gcm, got %r" % headers.get("content-encoding"))
        ttl = headers.get("ttl")
        if ttl is None or not re.fullmatch(r"\d+", ttl.strip()):
            return refuse(400, "TTL header must be an integer >= 0, got %r" % ttl)
        urgency = headers.get("urgency")
        if urgency is not None and urgency not in ("very-low", "low", "normal", "high"):
            return refuse(400, "urgency must be very-low, low, normal or high, got %r" % urgency)
        topic = headers.get("topic")
        if topic is not None and not (len(topic) <= 32 and _B64URL.fullmatch(topic)):
            return refuse(400, "topic must be at most 32 base64url characters")
        if subscription.mode == "gone":
            return refuse(410, "subscription gone")
        if subscription.mode == "missing":
            return refuse(404, "subscription not found")
        if len(body) > 4096:
            return refuse(413, "body is %d bytes, more than 4096" % len(body))
        try:
            plaintext = webpush_decrypt(body, subscription.private_key, subscription.auth)
        except ValueError as error:
            return refuse(400, "decryption failed: %s" % error)
        try:
            payload = json.loads(plaintext)
        except ValueError:
            payload = plaintext.decode("utf-8", "replace")
        self.record("web", req, 201, token=sub_id, payload=payload)
        location = "%s/webpush/message/%s" % (self.origin, uuid.uuid4())
        return 201, [("location", location), ("ttl", ttl.strip())], b""


# ---------------------------------------------------------------------------------------------
# Serving
# ---------------------------------------------------------------------------------------------


async def _run(app: StandIn, config, handshake: dict, ca_file: str, port: int, watch_stdin: bool):
    from hypercorn.asyncio import serve

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)

    if watch_stdin:
        def watch():
            try:
                while os.read(0, 65536):
                    pass
            except OSError:
                pass
            loop.call_soon_threadsafe(stop.set)

        threading.Thread(target=watch, name="stdin-watch", daemon=True).start()

    server = asyncio.ensure_future(serve(app, config, shutdown_trigger=stop.wait, mode="asgi"))

    # Print the handshake only once a TLS handshake with the server has succeeded.
    context = ssl.create_default_context(cafile=ca_file)
    deadline = loop.time() + 30
    while True:
        if server.done():
            server.result()
            raise SystemExit("push stand-in: server stopped before serving")
        if stop.is_set():
            os._exit(0)
        try:
            _, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port, ssl=context, server_hostname="127.0.0.1"), 5
            )
            writer.close()
            try:
                await writer.wait_closed()
            except (OSError, ssl.SSLError):
                pass
            break
        except (OSError, ssl.SSLError, asyncio.TimeoutError):
            if loop.time() > deadline:
                raise
            await asyncio.sleep(0.05)
    sys.stdout.write(json.dumps(handshake) + "\n")
    sys.stdout.flush()
    await stop.wait()
    # Give hypercorn a moment to send GOAWAY and close idle connections, then leave at once:
    # a client that keeps its connection open would otherwise hold the exit for the 30 s
    # TLS shutdown timeout.
    try:
        await asyncio.wait_for(asyncio.shield(server), config.graceful_timeout + 0.5)
    except BaseException:
        pass
    os._exit(0)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Local stand-in for APNs, FCM, HMS and Web Push.")
    parser.add_argument("--dir", required=True, help="directory for the generated keys and certificates")
    parser.add_argument("--apns-topic", default="com.example.app")
    parser.add_argument("--vapid-subject", default="mailto:ops@example.com")
    parser.add_argument("--quiet", action="store_true",
                        help="benchmark mode: keep counts only, cache JWT verification per token")
    parser.add_argument("--ignore-stdin", action="store_true",
                        help="do not exit when stdin closes (for running it by hand in the background)")
    args = parser.parse_args(argv)

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1024)
    port = listener.getsockname()[1]

    material = generate_material(args.dir, port)
    files = material["files"]
    app = StandIn(port, material, args.apns_topic, args.vapid_subject, args.quiet)

    from hypercorn.config import Config

    config = Config()
    config.bind = ["fd://%d" % listener.detach()]
    config.certfile = files["server.pem"]
    config.keyfile = files["server.key"]
    config.alpn_protocols = ["h2", "http/1.1"]
    config.accesslog = None
    config.loglevel = "WARNING"
    config.backlog = 1024
    config.keep_alive_timeout = 600
    config.keep_alive_max_requests = 1 << 60
    config.h2_max_concurrent_streams = 1000
    config.graceful_timeout = 1.0
    config.include_server_header = False

    handshake = {
        "port": port,
        "ca_file": files["ca.pem"],
        "apns_key_file": files["apns.p8"],
        "apns_key_id": APNS_KEY_ID,
        "apns_team_id": APNS_TEAM_ID,
        "apns_topic": args.apns_topic,
        "fcm_credentials_file": files["fcm.json"],
        "vapid_private_key_file": files["vapid.pem"],
        "vapid_subject": args.vapid_subject,
        "hms_app_id": HMS_APP_ID,
        "hms_app_secret": HMS_APP_SECRET,
        "base_url": "https://127.0.0.1:%d" % port,
        "fcm_project_id": FCM_PROJECT_ID,
    }
    asyncio.run(_run(app, config, handshake, files["ca.pem"], port, not args.ignore_stdin))


if __name__ == "__main__":
    main()
