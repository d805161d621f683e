"""Debian's headless Chromium for tests, through Python's standard library
alone: one-shot runs (--dump-dom, --screenshot), a DevTools session over
--remote-debugging-pipe (no websocket: the protocol's JSON messages, each
ended by a NUL byte, on file descriptors 3 and 4), and a PNG reader that
says how large a screenshot is and how many colours it has.

Every Chromium runs in a process group and a --user-data-dir of its own,
under a deadline; when it ends (or the test does) its group is killed, and
any process still naming the profile directory is found in /proc and
killed too, so no browser outlives the test."""

import fcntl
import json
import os
import select
import shutil
import signal
import struct
import subprocess
import tempfile
import time
import zlib

# Root needs --no-sandbox; the GPU process has no GPU in CI.
COMMON_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
                "--disable-background-networking", "--disable-component-update"]
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium():
    """The browser's path (DLPACK_USM_CHROMIUM overrides), or None."""
    override = os.environ.get("DLPACK_USM_CHROMIUM")
    if override:
        return shutil.which(override)
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def processes_using(marker):
    """Pids whose command line names `marker` (our profile directory)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                if marker.encode() in cmdline.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found


class Browser:
    """Chromium processes started by one test, each ended by end_all()."""

    def __init__(self, executable, work):
        self.executable = executable
        self.profile = tempfile.mkdtemp(prefix="chromium-profile-", dir=work)
        self.started = []

    def start(self, arguments, **popen):
        command = [self.executable, *COMMON_FLAGS, f"--user-data-dir={self.profile}", *arguments]
        process = subprocess.Popen(command, start_new_session=True, **popen)
        self.started.append(process)
        return process

    def run(self, arguments, timeout):
        """stdout of a one-shot run; RuntimeError past `timeout` seconds."""
        process = self.start(arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.end(process)
            raise RuntimeError(f"chromium {' '.join(arguments)} ran past {timeout} s")
        if process.returncode != 0:
            raise RuntimeError(f"chromium exited {process.returncode}: {err.decode()[-2000:]}")
        return out.decode()

    def end(self, process):
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        process.wait()

    def end_all(self):
        """Ends every browser; returns the pids that had to be killed after
        their process group was (processes that left it)."""
        for process in self.started:
            self.end(process)
        stray = processes_using(self.profile)
        for pid in stray:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 10
        while processes_using(self.profile) and time.monotonic() < deadline:
            time.sleep(0.1)
        shutil.rmtree(self.profile, ignore_errors=True)
        return stray


class DevTools:
    """One page under the DevTools protocol, over Chromium's pipe."""

    def __init__(self, browser, window, timeout):
        self.timeout = timeout
        to_browser, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()
        # Above 4, so that placing them on 3 and 4 in the child clobbers nothing.
        to_browser = fcntl.fcntl(to_browser, fcntl.F_DUPFD_CLOEXEC, 10)
        from_browser_write = fcntl.fcntl(from_browser_write, fcntl.F_DUPFD_CLOEXEC, 10)

        def place_pipes():
            os.dup2(to_browser, 3)
            os.dup2(from_browser_write, 4)

        self.process = browser.start(
            ["--remote-debugging-pipe", f"--window-size={window[0]},{window[1]}", "about:blank"],
            preexec_fn=place_pipes, close_fds=False,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.session = None
        self.events = []

    def call(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        reply = self._reply(self.next_id)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def _reply(self, wanted):
        return self._next(lambda message: message.get("id") == wanted)

    def wait_event(self, method):
        """The next event `method` of the page (kept since the last wait)."""
        for index, event in enumerate(self.events):
            if event.get("method") == method:
                return self.events.pop(index)
        return self._next(lambda message: message.get("method") == method, keep_events=False)

    def _next(self, wanted, keep_events=True):
        deadline = time.monotonic() + self.timeout
        while True:
            while b"\0" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\0", 1)
                message = json.loads(raw)
                if wanted(message):
                    return message
                if keep_events and "method" in message:
                    self.events.append(message)
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_browser], [], [], left)[0]:
                raise RuntimeError(f"no DevTools reply within {self.timeout} s")
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its DevTools pipe")
            self.buffer += chunk

    def open(self, url, scripts=True):
        """Loads `url` in a new page (its scripts off where `scripts` is
        false) and waits for its load event."""
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = self.call("Target.attachToTarget",
                             {"targetId": target["targetId"], "flatten": True}, session=False)
        self.session = attached["sessionId"]
        self.call("Page.enable")
        if not scripts:
            self.call("Emulation.setScriptExecutionDisabled", {"value": True})
        self.call("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")

    def page_html(self):
        """The rendered DOM as HTML (read through the protocol, so it works
        with the page's scripts off)."""
        root = self.call("DOM.getDocument", {"depth": -1})["root"]
        return self.call("DOM.getOuterHTML", {"nodeId": root["nodeId"]})["outerHTML"]

    def evaluate(self, expression):
        """The value of a JavaScript expression (JSON-able), or RuntimeError
        with the page's exception."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}...: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, condition):
        deadline = time.monotonic() + self.timeout
        while not self.evaluate(f"Boolean({condition})"):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the page never had {condition}")
            time.sleep(0.05)

    def hover(self, x, y):
        self.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})

    def close(self):
        try:
            self.call("Browser.close", session=False)
        except RuntimeError:
            pass
        os.close(self.to_browser)
        os.close(self.from_browser)


def png_facts(path):
    """(width, height, distinct colours, share of pixels unlike the first)
    of an 8-bit RGB or RGBA PNG, read with zlib and struct alone."""
    with open(path, "rb") as file:
        data = file.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is no PNG")
    offset, idat, header = 8, b"", None
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        offset += 12 + length
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in (2, 6) or interlace != 0:
        raise ValueError(f"{path}: depth {depth}, colour type {colour_type}, interlace {interlace}")
    channels = 3 if colour_type == 2 else 4
    pixels = unfilter(zlib.decompress(idat), width, height, channels)
    stride = width * channels
    colours, unlike = set(), 0
    first = bytes(pixels[0:channels])
    for row in range(height):
        line = pixels[row * stride:(row + 1) * stride]
        for column in range(0, stride, channels):
            pixel = bytes(line[column:column + channels])
            colours.add(pixel)
            unlike += pixel != first
    return width, height, len(colours), unlike / (width * height)


def unfilter(raw, width, height, channels):
    """The pixel bytes of the scanlines, each filter (PNG spec, 9.2) undone."""
    stride = width * channels
    out = bytearray(stride * height)
    previous = bytearray(stride)
    position = 0
    for row in range(height):
        kind = raw[position]
        line = bytearray(raw[position + 1:position + 1 + stride])
        position += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                estimate = left + up - corner
                distances = (abs(estimate - left), abs(estimate - up), abs(estimate - corner))
                nearest = (left, up, corner)[distances.index(min(distances))]
                line[i] = (line[i] + nearest) & 0xFF
        out[row * stride:(row + 1) * stride] = line
        previous = line
    return out
