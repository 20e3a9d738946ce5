#!/usr/bin/env python3
"""Drives the web remote in a real browser (headless Chromium through chromium-driver and
Selenium) against the running daemon, for vm/90-serve-remote-page.test.sh.

Usage: remote_page.py URL SOCKET CONTROLLER SHOTS SONG
  URL         the page's address with its token (`midihub remote --json`'s `url`)
  SOCKET      the daemon's control socket (to watch its events as a third client)
  CONTROLLER  the snd-virmidi port the daemon plays from (`hw:N,0`, for amidi)
  SHOTS       folder for a screenshot of each page state
  SONG        a MIDI file the page loads and plays

Two tabs open the page: two browser clients, each with its own WebSocket. Every check
prints one line; the first that fails ends the run with status 1 and says what it saw.
"""
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.common.exceptions import SessionNotCreatedException

URL, SOCKET, CONTROLLER, SHOTS, SONG = sys.argv[1:6]
os.makedirs(SHOTS, exist_ok=True)


def fail(message):
    print(f"FAIL: {message}", flush=True)
    sys.exit(1)


def ok(message):
    print(f"ok: {message}", flush=True)


def wait_until(what, predicate, seconds=60):
    """Polls `predicate` until it returns something true; fails naming `what`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.25)
    fail(f"{what} (waited {seconds} s)")


def midihub_json(*arguments):
    return json.loads(subprocess.run(["midihub", *arguments, "--json"], check=True, capture_output=True, text=True).stdout)


def parameter(node, name):
    found = [p["value"] for n in midihub_json("nodes") if n["id"] == node for p in n["parameters"] if p["name"] == name]
    return found[0] if found else None


def play_note(seconds=1.5):
    """The controller plays A3 for `seconds` (what the recording measures)."""
    subprocess.run(["amidi", "-p", CONTROLLER, "-S", "90 39 7F"], check=True)
    time.sleep(seconds)
    subprocess.run(["amidi", "-p", CONTROLLER, "-S", "80 39 00"], check=True)
    time.sleep(1.5)


class EventWatcher:
    """A third client on the control socket, subscribed to every event."""

    def __init__(self, path):
        self.connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.connection.connect(path)
        self.connection.sendall(b'{"id":1,"request":"subscribe"}\n')
        self.connection.settimeout(0.2)
        self.lines = []
        self.buffer = b""

    def seen(self, pattern):
        try:
            while True:
                chunk = self.connection.recv(65536)
                if not chunk:
                    break
                self.buffer += chunk
        except socket.timeout:
            pass
        *complete, self.buffer = self.buffer.split(b"\n")
        self.lines += [line.decode() for line in complete]
        return any(re.search(pattern, line) for line in self.lines)


def status(url, headers=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def upgrade_status(origin):
    """The status line's code of a WebSocket upgrade to /ws with the token and `origin`."""
    parts = urllib.parse.urlsplit(URL)
    request = (f"GET /ws?{parts.query} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               f"Sec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n")
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as connection:
        connection.sendall(request.encode())
        first = connection.recv(4096).split(b"\r\n")[0].decode()
    return int(first.split()[1])


# --- Access: the token, and the page's own origin for the WebSocket --------------------
base = URL.split("?")[0]
parts = urllib.parse.urlsplit(URL)
if status(base) != 401:
    fail(f"the page without its token answered {status(base)}, not 401")
if status(base + "?token=" + "0" * 64) != 401:
    fail("the page with a wrong token was not refused with 401")
if status(URL) != 200:
    fail(f"the page with its token answered {status(URL)}, not 200")
ok("the page needs its token (401 without it or with a wrong one, 200 with it)")
own_origin = f"{parts.scheme}://{parts.netloc}"
if upgrade_status(own_origin) != 101:
    fail(f"a WebSocket from the page's own origin was not accepted ({upgrade_status(own_origin)})")
foreign = upgrade_status("http://evil.example")
if foreign == 101 or foreign < 400:
    fail(f"a WebSocket from a foreign origin was accepted ({foreign})")
ok(f"a WebSocket from the page's origin is accepted (101), from a foreign one refused ({foreign})")

# --- Two browser clients ------------------------------------------------------------------
# Under emulation (the VM has no KVM) Chromium's browser process can take longer than the 15 s
# a child process waits for its IPC connection before it ends itself; a renderer that ended so
# leaves the first page load waiting forever ("Timed out receiving message from renderer").
# Hence a 300 s connection timeout, and the network service and the GPU in the browser's own
# process: fewer processes to start and connect. chromedriver talks to the browser over a pipe:
# over its DevTools port it asks before the emulated browser answers, and a first question
# that got no answer cost 10 s. chromedriver's log is kept beside the shots.
CHROMIUM_ARGUMENTS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                      "--ipc-connection-timeout=300", "--in-process-gpu",
                      "--enable-features=NetworkServiceInProcess", "--remote-debugging-pipe",
                      "--window-size=375,740"]


def start_browser(attempt):
    options = webdriver.ChromeOptions()
    for argument in CHROMIUM_ARGUMENTS + [f"--user-data-dir=/dev/shm/chrome-remote-{attempt}"]:
        options.add_argument(argument)
    service = Service("/usr/bin/chromedriver", service_args=["--verbose"],
                      log_path=os.path.join(SHOTS, f"chromedriver-{attempt}.log"))
    return webdriver.Chrome(service=service, options=options)


# Under emulation, late in a full VM run, Chromium has once failed to start in time
# ("DevToolsActivePort file doesn't exist"): a fresh profile and a second try, said aloud.
for attempt in range(3):
    try:
        driver = start_browser(attempt)
        break
    except SessionNotCreatedException as error:
        if attempt == 2:
            raise
        print(f"note: Chromium did not start (attempt {attempt + 1}): {error.msg.splitlines()[0]}", flush=True)
driver.set_page_load_timeout(300)
watcher = EventWatcher(SOCKET)


def testid(name):
    return f'[data-testid="{name}"]'


def element(name, seconds=120):
    return wait_until(f"the page shows {name}", lambda: (driver.find_elements(By.CSS_SELECTOR, testid(name)) or [None])[0],
                      seconds)


def text(name):
    return element(name).text


def number(name):
    match = re.search(r"[-−]?\d+(\.\d+)?", text(name))
    return float(match.group(0).replace("−", "-")) if match else None


def shot(name):
    driver.save_screenshot(os.path.join(SHOTS, name + ".png"))


def connected():
    return "connected" in text("status").lower()


try:
    driver.get(URL)
    first = driver.current_window_handle
    wait_until("the first page connects", connected, 240)
    driver.switch_to.new_window("tab")
    driver.get(URL)
    second = driver.current_window_handle
    wait_until("the second page connects", connected, 240)
    wait_until("the second page shows the Filter slider", lambda: number("widget-synth.brightness-value") is not None)
    shot("1-connected-375")
    ok("two pages connected, each with its own WebSocket")

    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    if overflow > 0:
        fail(f"the page overflows a 375-pixel screen by {overflow} pixels")
    ok("no horizontal overflow at 375 pixels")

    # --- A slider moved in the first page -------------------------------------------------
    driver.switch_to.window(first)
    before = parameter("synth", "brightness")
    play_note()
    slider = element("widget-synth.brightness-input")
    slider.location_once_scrolled_into_view
    # From the slider's middle to the window's left edge, past the slider's own.
    left = driver.execute_script("return arguments[0].getBoundingClientRect().left", slider)
    ActionChains(driver).move_to_element(slider).click_and_hold() \
        .move_by_offset(-int(left + slider.size["width"] / 2) + 1, 0).release().perform()
    after = wait_until("nodes.list shows the Filter slider's move to the bottom",
                       lambda: (lambda v: v if v is not None and v <= -47.5 else None)(parameter("synth", "brightness")), 60)
    ok(f"the slider dragged to its left end set synth.brightness from {before} to {after}")
    play_note()
    shot("2-slider-moved-first-375")
    driver.switch_to.window(second)
    wait_until("the second page shows the slider's new value",
               lambda: (lambda v: v is not None and v <= -47.5)(number("widget-synth.brightness-value")), 60)
    shot("3-slider-moved-second-375")
    ok("the second page shows the move")

    # --- An enumeration's selector (the synth's osc1 wave), by name -----------------------
    # The synth has widgets, so its panel starts closed: open it, as a finger on its title does.
    element("node-synth").find_element(By.TAG_NAME, "summary").click()
    chip = element("param-synth-osc1 wave-saw")
    chip.location_once_scrolled_into_view
    chip.click()
    wait_until("nodes.list shows osc1 wave = 3 (saw) after its saw chip",
               lambda: parameter("synth", "osc1 wave") == 3, 60)
    driver.switch_to.window(first)
    element("node-synth").find_element(By.TAG_NAME, "summary").click()
    wait_until("the first page lights its saw chip",
               lambda: "on" in (element("param-synth-osc1 wave-saw").get_attribute("class") or "").split(), 60)
    if "on" in (element("param-synth-osc1 wave-sine").get_attribute("class") or "").split():
        fail("the first page lights sine as well as saw")
    element("param-synth-osc1 wave-preset").click()
    wait_until("nodes.list shows osc1 wave = 0 (preset) again", lambda: parameter("synth", "osc1 wave") == 0, 60)
    driver.execute_script("window.scrollTo(0, 0)")
    driver.switch_to.window(second)
    driver.execute_script("window.scrollTo(0, 0)")  # back to the top, where the pads are (scrolled down to the synth's panel)
    ok("the osc1 wave selector set saw by name (3 in nodes.list) and the other page lit it; preset set it back")

    # --- A trigger and a scene --------------------------------------------------------------
    element("trigger-panic").click()
    wait_until("the daemon fired panic", lambda: watcher.seen(r'"event":"trigger-fired".*"panic"'), 60)
    ok("the panic pad fired the panic trigger")
    element("scene-chorus").click()
    wait_until("scenes.list shows chorus current",
               lambda: any(s.get("current") and s["name"] == "chorus" for s in midihub_json("scene")), 60)
    driver.switch_to.window(first)
    wait_until("the first page's Filter shows the chorus scene's 24",
               lambda: (lambda v: v is not None and abs(v - 24) < 0.5)(number("widget-synth.brightness-value")), 60)
    shot("4-scene-chorus-375")
    ok("the chorus scene button switched the scene; the other page shows its Filter value")

    # --- The transport ------------------------------------------------------------------------
    path = element("transport-load-path")
    path.clear()
    path.send_keys(SONG)
    element("transport-load").click()
    wait_until("the transport loaded the song", lambda: watcher.seen(r'"event":"transport-changed"'), 60)
    element("transport-play").click()
    start = wait_until("the page shows a position", lambda: text("transport-position").strip(), 60)
    later = wait_until(f"the position advances from {start} while playing",
                       lambda: (lambda p: p if p != start else None)(text("transport-position").strip()), 60)
    driver.set_window_size(1280, 800)
    shot("5-playing-1280")
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    if overflow > 0:
        fail(f"the page overflows a 1280-pixel screen by {overflow} pixels")
    element("transport-stop").click()
    ok(f"play from the page: the position went from {start} to {later}; no overflow at 1280 pixels")
    errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    if errors:
        fail(f"the browser logged errors: {errors}")
    ok("no errors in the browser's log")
finally:
    driver.quit()
