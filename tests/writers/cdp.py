# SPDX-License-Identifier: GPL-2.0
"""cdp.py - a headless Chromium driven through the DevTools protocol, with
the Python standard library only.

Chromium talks the protocol over a pipe (--remote-debugging-pipe: it reads
commands on fd 3 and writes answers and events on fd 4, each a JSON text
ending in a NUL byte): no port to find or to race for, no WebSocket to
speak.  One page is opened; everything it logs, throws or requests is
collected for the tests to look at.
"""

import base64
import json
import os
import select
import shutil
import struct
import subprocess
import tempfile
import time
import zlib


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class CdpError(Exception):
    pass


class Browser:
    """Chromium, headless, with one page attached."""

    def __init__(self, exe, width=1280, height=900, timeout=60):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="lt-chromium-")
        cmd_r, self.cmd_w = os.pipe()
        self.resp_r, resp_w = os.pipe()

        def child_fds():
            # the protocol's fds, as Chromium expects them; moved out of
            # the way first, as either may be 3 or 4 already (and a dup2()
            # onto itself would leave it closed on exec)
            a, b = os.dup(cmd_r), os.dup(resp_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        args = [exe, "--headless", "--remote-debugging-pipe",
                "--user-data-dir=" + self.profile, "--no-first-run",
                "--no-default-browser-check", "--disable-gpu",
                "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--disable-default-apps", "--mute-audio",
                "--hide-scrollbars", "--window-size=%d,%d" % (width, height)]
        # as root (CI, containers) the sandbox cannot start
        if os.geteuid() == 0:
            args.append("--no-sandbox")
        self.log = open(os.path.join(self.profile, "stderr.log"), "wb")
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL,
                                     stdout=self.log, stderr=self.log,
                                     close_fds=False, preexec_fn=child_fds)
        os.close(cmd_r)
        os.close(resp_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None
        target = self.call("Target.createTarget", {"url": "about:blank"})
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target["targetId"],
                                  "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(domain + ".enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1,
                   "mobile": False})

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.cmd_w)
        os.close(self.resp_r)
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CdpError("no answer from Chromium in time")
            ready, _, _ = select.select([self.resp_r], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.resp_r, 1 << 20)
            if not chunk:
                raise CdpError("Chromium closed the pipe (exit status %s)"
                               % self.proc.poll())
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, timeout=None):
        """A command (to the page once attached); its result."""
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session and not method.startswith(("Target.", "Browser.")):
            msg["sessionId"] = self.session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            m = self._read_message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise CdpError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            if "method" in m:
                self.events.append(m)

    def wait_event(self, method, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            for i, e in enumerate(self.events):
                if e["method"] == method:
                    return self.events.pop(i)
            self.events.append(self._read_message(deadline))

    def load(self, url):
        """Navigate and wait for the page's script to say it is ready."""
        self.events = []
        self.call("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")
        deadline = time.monotonic() + self.timeout
        while not self.eval("document.body && document.body.dataset.ready === '1'"):
            if time.monotonic() > deadline:
                raise CdpError("%s: the page never said it was ready" % url)
            time.sleep(0.05)

    def eval(self, expr):
        """A JavaScript expression's value, as JSON brings it back."""
        r = self.call("Runtime.evaluate", {"expression": expr,
                                           "returnByValue": True,
                                           "awaitPromise": True})
        if "exceptionDetails" in r:
            raise CdpError("%s: %s" % (expr[:80], json.dumps(r["exceptionDetails"])[:500]))
        return r["result"].get("value")

    def click(self, x, y):
        """A real click (press, release) at viewport coordinates."""
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent",
                      {"type": kind, "x": x, "y": y, "button": "left",
                       "clickCount": 1})

    def screenshot(self, clip=None):
        params = {"format": "png"}
        if clip:
            params["clip"] = clip
            params["captureBeyondViewport"] = True
        return base64.b64decode(self.call("Page.captureScreenshot", params)["data"])

    def print_pdf(self):
        return base64.b64decode(self.call("Page.printToPDF",
                                          {"printBackground": True})["data"])

    def problems(self, page_url):
        """Console errors, exceptions, error logs, and any request that
        is not for the page itself."""
        out = []
        for e in self.events:
            m, p = e["method"], e.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
                out.append("console.%s: %s" % (p["type"], " ".join(
                    str(a.get("value", a.get("description", ""))) for a in p.get("args", []))))
            elif m == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append("exception: %s %s" % (d.get("text", ""),
                           d.get("exception", {}).get("description", "")))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") in ("error", "warning"):
                out.append("log: " + p["entry"].get("text", ""))
            elif m == "Network.requestWillBeSent":
                url = p.get("request", {}).get("url", "")
                if url != page_url:
                    out.append("request: " + url)
            elif m == "Page.javascriptDialogOpening":
                out.append("dialog: " + p.get("message", ""))
        return out


def png_pixels(data):
    """Width, height and the rows of an 8-bit RGB or RGBA PNG, decoded
    with zlib: Chromium's screenshots are such."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, ihdr = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + n
    w, h, depth, colour, _, _, interlace = ihdr
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError("PNG of depth %d, colour type %d, interlace %d: not "
                         "decoded here" % (depth, colour, interlace))
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    rows, prev, at = [], bytearray(stride), 0
    for _ in range(h):
        f, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else
                                      b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def png_colours(data):
    """Width, height, distinct colours, and the share of pixels that are
    not the background (the most common colour)."""
    w, h, bpp, rows = png_pixels(data)
    counts = {}
    for r in rows:
        for i in range(0, len(r), bpp):
            px = r[i:i + 3]
            counts[px] = counts.get(px, 0) + 1
    bg = max(counts.values()) if counts else 0
    return w, h, len(counts), 1 - bg / float(w * h)
