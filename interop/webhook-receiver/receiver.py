#!/usr/bin/env python3
"""A webhook receiver in Python's standard library, as docs/events.md describes one.

It listens on 127.0.0.1 (a free port unless one is given), prints "listening <port>", then reads the endpoint's
secret as the first line of its standard input. Every POST is checked: the Mesh-Webhook-Signature header's v1 must be
the hex HMAC-SHA256 of "<t>.<raw body>" keyed with the secret, compared in constant time, and t must be within five
minutes of now. A verified request is answered 200 and each of its events printed as one JSON line
{"verified": true, "event": {...}}; anything else is answered 401 and printed as {"verified": false, ...}.
"""
import hashlib
import hmac
import http.server
import json
import sys
import threading
import time

TOLERANCE_SECONDS = 300
secret_ready = threading.Event()
secret = b""
# Requests are handled on threads of their own; one line is written whole before another starts.
output = threading.Lock()


def emit(record: dict) -> None:
    """Prints one JSON line."""
    with output:
        sys.stdout.write(json.dumps(record) + "\n")
        sys.stdout.flush()


def verify(secret: bytes, header: str, body: bytes, now: float) -> bool:
    """True when one v1 signature in the header matches the body and t is recent."""
    fields = [part.strip().split("=", 1) for part in (header or "").split(",")]
    timestamps = [value for key, value in fields if key == "t"]
    signatures = [value for key, value in fields if key == "v1"]
    if len(timestamps) != 1 or not timestamps[0].isdigit() or not signatures:
        return False
    t = timestamps[0]
    if abs(now - int(t)) > TOLERANCE_SECONDS:
        return False
    expected = hmac.new(secret, t.encode() + b"." + body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, candidate) for candidate in signatures)


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        secret_ready.wait()
        signed = verify(secret, self.headers.get("Mesh-Webhook-Signature"), body, time.time())
        if signed:
            for event in json.loads(body):
                emit({"verified": True, "event": event})
        else:
            emit({"verified": False, "path": self.path})
        self.send_response(200 if signed else 401)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format, *args):
        pass  # stdout carries events only


def main():
    global secret
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print(f"listening {server.server_address[1]}", flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    secret = sys.stdin.readline().strip().encode()
    secret_ready.set()
    sys.stdin.read()  # runs until its input closes
    server.shutdown()


if __name__ == "__main__":
    main()
