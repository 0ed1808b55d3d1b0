#!/usr/bin/env python3
"""A remote seat for selfplay-arena in plain Python (standard library only).

Speaks socket.io over HTTP long-polling (Engine.IO v4) to the arena's /play namespace:
authenticates with the seat token, answers every `decide` and stops after N finished matches.
Protocol: docs/protocol.md ("Remote and human seats").

    python3 examples/bots/remote-bot.py --url http://127.0.0.1:8080 --token TOKEN [--matches 1]

The policy below (`choose`) plays the first legal action, or "agree" when it may; replace it
with your model. Answers are sent by name ({"label": ...}) or, for open action sets, as the
text-player answer ({"answer": ...}).
"""
import argparse
import json
import sys
import urllib.request

NAMESPACE = "/play"
SEP = "\x1e"  # Engine.IO v4 packet separator in a polling payload


class Seat:
    """One Engine.IO polling session with the /play namespace."""

    def __init__(self, url, token):
        self.base = url.rstrip("/") + "/socket.io/?EIO=4&transport=polling"
        self.sid = None
        self.next_ack = 0
        handshake = self._get(self.base)
        if not handshake.startswith("0"):
            raise RuntimeError("unexpected handshake: " + handshake[:80])
        self.sid = json.loads(handshake[1:])["sid"]
        self._post("40" + NAMESPACE + "," + json.dumps({"token": token}))

    def _get(self, url):
        with urllib.request.urlopen(url, timeout=90) as r:
            return r.read().decode("utf-8")

    def _post(self, payload):
        req = urllib.request.Request(self.base + "&sid=" + self.sid, data=payload.encode("utf-8"), method="POST",
                                     headers={"content-type": "text/plain;charset=UTF-8"})
        with urllib.request.urlopen(req, timeout=30) as r:
            r.read()

    def emit(self, name, data):
        """Sends an event with an acknowledgement id (the reply arrives as an ack packet)."""
        self.next_ack += 1
        self._post("42" + NAMESPACE + "," + str(self.next_ack) + json.dumps([name, data]))

    def packets(self):
        """Yields (kind, payload) forever: ('connect', {...}), ('event', [name, data]), ('ack', [...]), ('error', {...})."""
        prefix_len = len(NAMESPACE) + 1
        while True:
            try:
                payload = self._get(self.base + "&sid=" + self.sid)
            except OSError:
                return  # the server went away: the session is over
            for p in payload.split(SEP):
                if p == "2":  # ping -> pong
                    self._post("3")
                elif p == "1":
                    return
                elif p.startswith("40" + NAMESPACE):
                    yield "connect", json.loads(p[2 + prefix_len:] or "{}")
                elif p.startswith("44" + NAMESPACE):
                    yield "error", json.loads(p[2 + prefix_len:])
                elif p.startswith("42" + NAMESPACE + ","):
                    yield "event", json.loads(p[2 + prefix_len:])
                elif p.startswith("43" + NAMESPACE + ","):
                    body = p[2 + prefix_len:]
                    yield "ack", json.loads(body[body.index("["):])


def choose(decision):
    """The policy: an answer for one `decide` message."""
    if decision["legal"] is not None:
        names = [a["label"] for a in decision["legal"]]
        return {"label": "agree" if "agree" in names else names[0]}
    obs = decision["observation"]
    if isinstance(obs, dict) and obs.get("numbers"):
        return {"answer": str(obs["numbers"][0])}  # Countdown: a (poor) expression
    return {"answer": "Deal."}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--url", required=True)
    ap.add_argument("--token", required=True)
    ap.add_argument("--matches", type=int, default=1, help="stop after this many matches ended")
    a = ap.parse_args()
    seat = Seat(a.url, a.token)
    ended = decisions = 0
    for kind, payload in seat.packets():
        if kind == "error":
            print("refused: " + payload.get("message", ""), file=sys.stderr)
            return 2
        if kind != "event":
            continue
        name, data = payload[0], payload[1]
        if name == "decide":
            decisions += 1
            seat.emit("act", dict(requestId=data["requestId"], **choose(data)))
        elif name == "event" and data["event"]["type"] == "match.ended":
            ended += 1
            print(json.dumps({"match": data["matchId"], "outcome": data["event"]["outcome"], "returns": data["event"]["returns"]}))
            if ended >= a.matches:
                break
    print(json.dumps({"matches": ended, "decisions": decisions}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
