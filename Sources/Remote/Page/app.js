// midihub remote: the hub's widgets, nodes, scenes, triggers, transport, graph, ports and
// events in a browser. It speaks the control protocol (docs/control-protocol.md) over one
// WebSocket, one JSON object per text frame.
"use strict";

const token = new URLSearchParams(location.search).get("token") || "";
const byId = (id) => document.getElementById(id);

/** Makes an element: attributes (`on…` become listeners), then children (strings become text). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

// ---------------------------------------------------------------- connection

let socket = null;
let nextId = 1;
const pending = new Map(); // request id → {resolve, reject}
let backoff = 500;
let everConnected = false;

function setStatus(kind, text) {
  const status = byId("status");
  status.dataset.state = kind;
  status.textContent = text;
}

function connect() {
  setStatus("connecting", "connecting…");
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  socket = new WebSocket(scheme + location.host + "/ws?token=" + encodeURIComponent(token));
  socket.onopen = async () => {
    backoff = 500;
    everConnected = true;
    setStatus("connected", "connected");
    try {
      const hello = await request("hello", { protocolVersion: 1, client: "midihub remote" });
      if (hello.protocolVersion !== 1) showError({ message: `the hub speaks control protocol ${hello.protocolVersion}, this page 1`, fix: "reload the page" });
      await request("subscribe"); // every event
      await loadAll();
    } catch (error) {
      showError(error);
    }
  };
  socket.onmessage = (frame) => {
    let message;
    try { message = JSON.parse(frame.data); } catch { return; }
    if (message.event) return onEvent(message);
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.ok) waiter.resolve(message.result);
    else waiter.reject(message.error || { message: "failed" });
  };
  socket.onclose = () => {
    for (const waiter of pending.values()) waiter.reject({ code: "closed", message: "connection closed" });
    pending.clear();
    const seconds = Math.round(backoff / 100) / 10;
    // A refused token and a hub that is down look alike from here (the socket just closes).
    const hint = everConnected ? "" : " (check the link's token)";
    setStatus("offline", `offline: retrying in ${seconds} s${hint}`);
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 10000);
  };
}

/** Sends a request; resolves with its `result`, rejects with its `error`. */
function request(name, params) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    return Promise.reject({ code: "closed", message: "not connected" });
  }
  const id = nextId++;
  const message = { id, request: name };
  if (params !== undefined) message.params = params;
  socket.send(JSON.stringify(message));
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

let errorTimer = 0;
function showError(error) {
  if (error && error.code === "closed") return; // the status pill says so
  const box = byId("error");
  box.textContent = error.message + (error.fix ? ` (${error.fix})` : "");
  box.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

/** A request whose failure is shown, not thrown. */
const act = (name, params) => request(name, params).catch((error) => { showError(error); return null; });

// Moves are sent one at a time per control: while one is in flight only the latest value waits.
const throttles = new Map();
function sendLatest(key, send) {
  let slot = throttles.get(key);
  if (!slot) throttles.set(key, (slot = { busy: false, next: null }));
  if (slot.busy) { slot.next = send; return; }
  slot.busy = true;
  send().catch(showError).finally(() => {
    slot.busy = false;
    const next = slot.next;
    slot.next = null;
    if (next) sendLatest(key, next);
  });
}

// Several events in a row ask for one refresh.
const refreshTimers = new Map();
function refreshSoon(what, load) {
  if (refreshTimers.has(what)) return;
  refreshTimers.set(what, setTimeout(() => { refreshTimers.delete(what); load().catch(showError); }, 150));
}

// ---------------------------------------------------------------- values and views

/** Every view of a parameter, by `node.parameter`, so an event updates all of them. */
const views = new Map();
const paramKey = (node, parameter) => `${node}.${parameter}`;
function addView(key, view) {
  if (!views.has(key)) views.set(key, new Set());
  views.get(key).add(view);
}
function showValue(key, value) {
  for (const view of views.get(key) || []) view.setValue(value);
}

const UNITS = { decibels: "dB", hertz: "Hz", seconds: "s", milliseconds: "ms", percent: "%", semitones: "st", beats: "beats", count: "" };
function formatValue(value, unit) {
  if (value === undefined || value === null) return "–";
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  const text = Number.isInteger(value) ? String(value) : value.toFixed(digits);
  const suffix = UNITS[unit];
  return suffix ? `${text} ${suffix}` : text;
}

/** A value snapped to what the parameter takes: whole numbers for counts, else 1/1000 of the range. */
function snap(value, min, max, unit) {
  const clamped = Math.min(max, Math.max(min, value));
  if (unit === "count" || unit === "boolean") return Math.round(clamped);
  const step = (max - min) / 1000;
  return Number((Math.round((clamped - min) / step) * step + min).toPrecision(6));
}

/**
 * A slider (drag anywhere along it) or a knob (drag up and down; shift for fine moves).
 * Arrow keys, Page Up/Down, Home and End move it too; a double click returns to `def`.
 * `send(value)` returns a promise; moves go through `sendLatest`.
 */
function continuousControl({ kind, testid, title, min, max, unit, value, def, send }) {
  let current = value;
  let dragging = false;
  const fill = el("div", { class: "fill" });
  const surface = el("div", {
    class: kind === "knob" ? "knob-face" : "slider-track",
    tabindex: 0, role: "slider", "aria-label": title,
    "aria-valuemin": min, "aria-valuemax": max,
    "data-testid": `${testid}-input`,
  }, fill);
  const readout = el("div", { class: "ctl-value", "data-testid": `${testid}-value` });
  const root = el("div", { class: `ctl ${kind}`, "data-testid": testid },
    el("div", { class: "ctl-title" }, title), surface, readout);

  function draw(v) {
    const share = max > min && v !== undefined ? (v - min) / (max - min) : 0;
    root.style.setProperty("--share", share.toFixed(4));
    surface.setAttribute("aria-valuenow", v ?? "");
    readout.textContent = formatValue(v, unit);
  }
  function move(v) {
    const snapped = snap(v, min, max, unit);
    if (snapped === current) return;
    current = snapped;
    draw(current);
    sendLatest(testid, () => send(snapped));
  }
  // While the hand is on it, or a move of its own is on the way, the control shows where the
  // hand put it: the events coming back are that move's own echoes, older than the hand.
  root.setValue = (v) => {
    if (dragging || throttles.get(testid)?.busy) return;
    current = v;
    draw(v);
  };

  let startY = 0, startValue = 0;
  surface.addEventListener("pointerdown", (e) => {
    if (max <= min) return;
    surface.setPointerCapture(e.pointerId);
    dragging = true;
    root.classList.add("active");
    startY = e.clientY;
    startValue = current ?? min;
    if (kind !== "knob") moveTo(e);
    e.preventDefault();
  });
  const moveTo = (e) => {
    if (kind === "knob") {
      const pixels = e.shiftKey ? 1000 : 200; // pixels for the whole range
      move(startValue + ((startY - e.clientY) / pixels) * (max - min));
    } else {
      const rect = surface.getBoundingClientRect();
      move(min + ((e.clientX - rect.left) / rect.width) * (max - min));
    }
  };
  surface.addEventListener("pointermove", (e) => { if (dragging) moveTo(e); });
  const end = () => {
    if (!dragging) return;
    dragging = false;
    root.classList.remove("active");
  };
  surface.addEventListener("pointerup", end);
  surface.addEventListener("pointercancel", end);
  surface.addEventListener("dblclick", () => { if (def !== undefined) move(def); });
  surface.addEventListener("keydown", (e) => {
    const span = max - min;
    const steps = { ArrowUp: 0.01, ArrowRight: 0.01, ArrowDown: -0.01, ArrowLeft: -0.01, PageUp: 0.1, PageDown: -0.1 };
    const base = current ?? min;
    if (e.key in steps) move(base + steps[e.key] * span * (unit === "count" ? Math.max(1, 100 / span) : 1));
    else if (e.key === "Home") move(min);
    else if (e.key === "End") move(max);
    else return;
    e.preventDefault();
  });
  draw(value);
  return root;
}

/** An on/off switch: bottom or top of the range. */
function switchControl({ testid, title, min, max, value, send }) {
  let current = value;
  const button = el("button", { class: "toggle", "data-testid": `${testid}-input`, "aria-pressed": "false" }, title);
  const root = el("div", { class: "ctl switch", "data-testid": testid }, button);
  root.setValue = (v) => {
    current = v;
    const on = v !== undefined && v > (min + max) / 2;
    button.setAttribute("aria-pressed", String(on));
    root.classList.toggle("on", on);
  };
  button.addEventListener("click", () => {
    const next = current > (min + max) / 2 ? min : max;
    root.setValue(next);
    sendLatest(testid, () => send(next));
  });
  root.setValue(value);
  return root;
}

/** The named values of an enumeration (the synth's waves, an LV2 port's enumeration) as chips, the current one lit. */
function choiceControl({ testid, title, choices, value, send }) {
  const row = el("div", { class: "chips" });
  const root = el("div", { class: "ctl selector", "data-testid": testid }, el("div", { class: "ctl-title" }, title), row);
  for (const choice of choices) {
    row.append(el("button", {
      class: "chip", "data-testid": `${testid}-${choice.label}`, "data-value": String(choice.value),
      onclick: () => { root.setValue(choice.value); sendLatest(testid, () => send(choice)); },
    }, choice.label));
  }
  root.setValue = (v) => {
    root.dataset.value = String(v);
    for (const chip of row.children) chip.classList.toggle("on", Number(chip.dataset.value) === v);
  };
  root.setValue(value);
  return root;
}

/** A button acting while held: `press` on pointer down, `release` on up (touch and mouse alike). */
function holdButton({ testid, title, classes, press, release }) {
  const button = el("button", { class: `pad ${classes || ""}`, "data-testid": testid }, el("span", { class: "led" }), title);
  let held = false;
  button.addEventListener("pointerdown", (e) => {
    button.setPointerCapture(e.pointerId);
    held = true;
    button.classList.add("held");
    press().catch(showError);
  });
  const up = () => {
    if (!held) return;
    held = false;
    button.classList.remove("held");
    if (release) release().catch(showError);
  };
  button.addEventListener("pointerup", up);
  button.addEventListener("pointercancel", up);
  // Keyboard users: Enter and Space give a click with no pointer events.
  button.addEventListener("click", (e) => {
    if (e.detail !== 0) return;
    press().then(() => release && release()).catch(showError);
  });
  return button;
}

/** Shows a trigger's state as a pad's LED: selected lit, alternate (primed) amber, disabled dim. */
function setPadState(pad, state) {
  pad.dataset.state = state || "normal";
  pad.disabled = state === "disabled";
}

function flash(element) {
  element.classList.remove("flash");
  void element.offsetWidth; // restart the animation
  element.classList.add("flash");
}

// ---------------------------------------------------------------- state

const state = {
  nodes: [],
  widgets: [],
  scenes: [],
  triggers: [],
  ports: [],
  connections: [],
  mappings: [],
  transport: null,
};

async function loadAll() {
  await Promise.all([loadNodesAndWidgets(), loadScenes(), loadTriggers(), loadPortsAndConnections(), loadTransport(), loadMappings()]);
}

// ---------------------------------------------------------------- widgets and nodes

let widgetShape = "";
const widgetViews = []; // index in widgets.list → view with setValue / setState

async function loadNodesAndWidgets() {
  const [nodes, widgets] = await Promise.all([request("nodes.list"), request("widgets.list")]);
  state.nodes = nodes;
  views.clear();
  renderWidgets(widgets, true);
  renderNodes();
  renderGraph();
}

/** The name `widgets.set`, `widgets.press` and `widgets.release` take. */
const widgetName = (w) => w.name ?? w.target;

const widgetsShape = (widgets) => JSON.stringify(widgets.map((w) => [w.kind, w.target, w.title, w.options]));

/** Draws the widgets anew, or with `rebuild` false only shows their values and states now. */
function renderWidgets(widgets, rebuild = false) {
  state.widgets = widgets;
  if (!rebuild) {
    widgets.forEach((w, i) => updateWidget(widgetViews[i], w));
    return;
  }
  widgetShape = widgetsShape(widgets);
  widgetViews.length = 0;
  const box = byId("widgets");
  box.replaceChildren();
  const seen = new Map(); // two widgets on one target: the second is `widget-NAME-2`
  for (const w of widgets) {
    const count = (seen.get(widgetName(w)) || 0) + 1;
    seen.set(widgetName(w), count);
    const view = makeWidget(w, `widget-${widgetName(w)}${count > 1 ? `-${count}` : ""}`);
    widgetViews.push(view);
    box.append(view);
  }
  if (!widgets.length) box.append(el("p", { class: "empty" }, "The patch declares no widgets."));
}

function updateWidget(view, w) {
  if (!view) return;
  if (view.setValue && w.value !== undefined) view.setValue(w.value);
  if (view.setState) view.setState(w);
}

function makeWidget(w, testid) {
  const name = widgetName(w);
  const [node, ...rest] = w.target.split(".");
  const parameter = rest.join(".");
  const answer = (result) => { if (result && result.value !== undefined) showValue(w.target, result.value); };
  const hasRange = w.min !== undefined && w.max !== undefined;
  let view;
  switch (w.kind) {
    case "slider":
    case "knob": {
      if (!hasRange) break;
      const target = findParameter(node, parameter);
      if (target?.enumeration && target.choices && target.unit !== "boolean") {
        view = choiceControl({
          testid, title: w.title, choices: target.choices, value: w.value,
          send: (choice) => request("widgets.set", { widget: name, value: choice.value }).then(answer),
        });
        break;
      }
      view = continuousControl({
        kind: w.kind, testid, title: w.title, min: w.min, max: w.max, unit: w.unit, value: w.value,
        def: findParameter(node, parameter)?.default,
        send: (value) => request("widgets.set", { widget: name, value }).then(answer),
      });
      break;
    }
    case "switch":
      if (!hasRange) break;
      view = switchControl({
        testid, title: w.title, min: w.min, max: w.max, value: w.value,
        send: (value) => request("widgets.set", { widget: name, value }).then(answer),
      });
      break;
    case "momentary":
      view = holdButton({
        testid, title: w.title, classes: "momentary",
        press: () => request("widgets.press", { widget: name }).then(answer),
        release: () => request("widgets.release", { widget: name }).then(answer),
      });
      view.setValue = (v) => view.classList.toggle("on", hasRange && v > (w.min + w.max) / 2);
      view.setValue(w.value);
      break;
    case "button":
      view = holdButton({
        testid, title: w.title,
        press: () => request("widgets.press", { widget: name }).then((r) => r && setPadState(view, r.state)),
        release: () => request("widgets.release", { widget: name }),
      });
      view.setState = (s) => setPadState(view, s.state);
      view.setState(w);
      triggerPads(parameter).add(view);
      break;
    case "label":
    case "meter": {
      const bar = w.kind === "meter" ? el("div", { class: "meter-bar" }, el("div", { class: "fill" })) : null;
      const readout = el("div", { class: "ctl-value", "data-testid": `${testid}-value` });
      view = el("div", { class: `ctl ${w.kind}`, "data-testid": testid }, el("div", { class: "ctl-title" }, w.title), bar, readout);
      let top = w.max ?? 1; // an output without a range scales to the largest value seen
      view.setValue = (v) => {
        readout.textContent = formatValue(v, w.unit);
        if (!bar || v === undefined) return;
        top = Math.max(top, v);
        const low = w.min ?? 0;
        view.style.setProperty("--share", Math.max(0, Math.min(1, (v - low) / (top - low || 1))).toFixed(4));
      };
      view.setValue(w.value);
      break;
    }
    case "selector": {
      view = el("div", { class: "ctl selector", "data-testid": testid }, el("div", { class: "ctl-title" }, w.title));
      const row = el("div", { class: "chips" });
      for (const option of w.options || []) {
        row.append(el("button", {
          class: "chip", "data-testid": `${testid}-${option}`, "data-scene": option,
          onclick: () => act("scenes.switch", { scene: option }).then((r) => r && markScene(r.name)),
        }, option));
      }
      view.append(row);
      view.setState = (s) => markSelector(view, s.selected);
      view.setState(w);
      break;
    }
  }
  if (!view) {
    // A widget whose node is gone, or a kind this page does not know: say so rather than hide it.
    view = el("div", { class: "ctl missing", "data-testid": testid }, el("div", { class: "ctl-title" }, w.title), el("div", { class: "ctl-value" }, "—"));
  }
  if (view.setValue && parameter && w.kind !== "button") addView(w.target, view);
  return view;
}

function markSelector(view, scene) {
  for (const chip of view.querySelectorAll(".chip")) chip.classList.toggle("on", chip.dataset.scene === scene);
}

function findParameter(node, parameter) {
  return state.nodes.find((n) => n.id === node)?.parameters.find((p) => p.name === parameter);
}

/** A panel per node with parameters; nodes the widgets do not show are open. */
function renderNodes() {
  const box = byId("nodes");
  box.replaceChildren();
  const shown = new Set(state.widgets.map((w) => w.target.split(".")[0]));
  for (const node of state.nodes) {
    if (!node.parameters.length) continue;
    const grid = el("div", { class: "widgets" });
    for (const p of node.parameters) grid.append(parameterRow(node.id, p));
    box.append(el("details", { class: "node-panel", id: `node-${node.id}`, "data-testid": `node-${node.id}`, open: !shown.has(node.id) },
      el("summary", {}, node.id, el("span", { class: "muted" }, ` ${node.name}`)), grid));
  }
  if (!box.children.length) box.append(el("p", { class: "empty" }, "No node has parameters."));
}

/** One parameter: a slider (a switch for a boolean, a selector for an enumeration), its value, and a learn button. */
function parameterRow(node, p) {
  const testid = `param-${node}-${p.name}`;
  const key = paramKey(node, p.name);
  let control;
  if (p.direction === "output" || p.min === undefined || p.max === undefined) {
    const readout = el("div", { class: "ctl-value", "data-testid": `${testid}-value` }, formatValue(p.value, p.unit));
    control = el("div", { class: "ctl label", "data-testid": testid }, el("div", { class: "ctl-title" }, p.name), readout);
    control.setValue = (v) => { readout.textContent = formatValue(v, p.unit); };
    addView(key, control);
    return control;
  }
  const send = (value) => request("parameters.set", { node, parameter: p.name, value }).then((r) => showValue(key, r.value));
  control = p.unit === "boolean"
    ? switchControl({ testid, title: p.name, min: p.min, max: p.max, value: p.value, send })
    : p.enumeration && p.choices
    ? choiceControl({ testid, title: p.name, choices: p.choices, value: p.value, send: (choice) => send(choice.label) })
    : continuousControl({ kind: "slider", testid, title: p.name, min: p.min, max: p.max, unit: p.unit, value: p.value, def: p.default, send });
  addView(key, control);
  const learn = el("button", {
    class: "small learn", "data-testid": `learn-${node}-${p.name}`, title: "Map the next control moved to this parameter",
    onclick: () => startLearn(node, p.name, learn),
  }, "learn");
  control.append(learn);
  return control;
}

// ---------------------------------------------------------------- learn

let learning = null; // {node, parameter, button}

function startLearn(node, parameter, button) {
  request("learn", { node, parameter, seconds: 30 }).then(() => {
    if (learning) learning.button.classList.remove("waiting");
    learning = { node, parameter, button };
    button.classList.add("waiting");
    showLearn(`Move a control for ${node}.${parameter}…`, true);
  }, showError);
}

function showLearn(text, waiting) {
  byId("learn-text").textContent = text;
  byId("learn-cancel").hidden = !waiting;
  byId("learn-banner").hidden = false;
  byId("learn-banner").dataset.state = waiting ? "waiting" : "done";
}

function endLearn(text) {
  if (learning) learning.button.classList.remove("waiting");
  learning = null;
  showLearn(text, false);
  setTimeout(() => { if (!learning) byId("learn-banner").hidden = true; }, 5000);
}

// ---------------------------------------------------------------- scenes and triggers

async function loadScenes() {
  state.scenes = await request("scenes.list");
  const box = byId("scenes");
  box.replaceChildren(...state.scenes.map((s) => el("button", {
    class: "chip" + (s.current ? " on" : ""), "data-testid": `scene-${s.name}`, "data-scene": s.name,
    onclick: () => act("scenes.switch", { scene: s.name }).then((r) => r && markScene(r.name)),
  }, s.name)));
  if (!state.scenes.length) box.append(el("p", { class: "empty" }, "No scenes."));
}

function markScene(name) {
  for (const chip of document.querySelectorAll("[data-scene]")) chip.classList.toggle("on", chip.dataset.scene === name);
}

/** Every pad showing a trigger (the trigger list, the pad matrix, button widgets), by trigger name. */
const padsByTrigger = new Map();
function triggerPads(name) {
  if (!padsByTrigger.has(name)) padsByTrigger.set(name, new Set());
  return padsByTrigger.get(name);
}

function triggerPad(name, testid) {
  const pad = holdButton({ testid, title: name, press: () => request("triggers.fire", { trigger: name }).then(applyTrigger) });
  triggerPads(name).add(pad);
  return pad;
}

function applyTrigger(trigger) {
  for (const pad of triggerPads(trigger.name)) {
    if (pad.isConnected) setPadState(pad, trigger.state);
    else padsByTrigger.get(trigger.name).delete(pad); // replaced by a newer rendering
  }
}

async function loadTriggers() {
  const triggers = await request("triggers.list");
  const same = triggers.length === state.triggers.length && triggers.every((t, i) => t.name === state.triggers[i].name);
  state.triggers = triggers;
  if (same) return triggers.forEach(applyTrigger); // keep the pads (and a flash going on them)
  const box = byId("triggers");
  box.replaceChildren(...state.triggers.map((t) => {
    const pad = triggerPad(t.name, `trigger-${t.name}`);
    pad.title = t.action;
    return pad;
  }));
  state.triggers.forEach(applyTrigger);
  renderPadMatrix();
}

/**
 * The patch's `pads:` as the controller lays them out: the mappings from a note to a trigger,
 * in note order, with the LEDs the controller's pads show.
 */
function renderPadMatrix() {
  const pads = state.mappings
    .map((m) => ({ note: /^note (\d+)$/.exec(m.control)?.[1], target: m.targets?.[0] }))
    .filter((p) => p.note !== undefined && p.target?.node === "trigger")
    .sort((a, b) => a.note - b.note);
  byId("padmatrix-wrap").hidden = !pads.length;
  byId("padmatrix").replaceChildren(...pads.map((p) => {
    const pad = triggerPad(p.target.parameter, `pad-${p.note}`);
    pad.title = `note ${p.note}`;
    return pad;
  }));
  state.triggers.forEach(applyTrigger);
}

async function loadMappings() {
  state.mappings = await request("mappings.list");
  byId("mappings").replaceChildren(...state.mappings.map((m, i) => el("li", { "data-testid": `mapping-${i}` },
    `${m.control}${m.channel ? ` ch ${m.channel}` : ""}${m.from ? ` from ${m.from}` : ""} → `,
    (m.targets || []).map((t) => `${t.node}.${t.parameter}`).join(", "))));
  if (!state.mappings.length) byId("mappings").append(el("li", { class: "empty" }, "No mappings."));
  renderPadMatrix();
}

// ---------------------------------------------------------------- transport

// Between `transport-changed` events the position runs on a local clock; while playing,
// a status read every second keeps it honest (loops, tempo changes in the file).
let transportAt = 0;
let beatsPerBar = 4; // the largest beat a status showed: the song's meter is not in the status

async function loadTransport() {
  applyTransport(await request("transport", { action: "status" }));
}

function applyTransport(t) {
  if (t.song !== state.transport?.song) beatsPerBar = 4; // learnt again from each song's positions
  state.transport = t;
  transportAt = performance.now();
  const beat = Number(String(t.position || "").split(":")[1]);
  if (beat > beatsPerBar) beatsPerBar = Math.ceil(beat);
  document.body.dataset.transport = t.state || "stopped";
  byId("t-state").textContent = t.state || "stopped";
  byId("t-song").textContent = t.song
    ? t.song + (t.playlist ? ` (${t.playlist.song}/${t.playlist.count})` : "") + (t.recording ? " ● rec" : "")
    : "no song";
  const tempo = byId("t-tempo");
  if (document.activeElement !== tempo && t.tempo !== undefined) tempo.value = Number(t.tempo.toFixed(2));
  byId("t-tempo-file").hidden = !t.tempoOverride;
  byId("t-loop").textContent = t.loop ? "loop off" : "loop";
  byId("t-loop").classList.toggle("on", !!t.loop);
  if (t.loop) {
    if (document.activeElement !== byId("t-loop-from")) byId("t-loop-from").value = t.loop.from;
    if (document.activeElement !== byId("t-loop-to")) byId("t-loop-to").value = t.loop.to;
  }
  drawTransport();
}

const clock = (s) => {
  const seconds = Math.max(0, s || 0);
  return `${Math.floor(seconds / 60)}:${(seconds % 60).toFixed(1).padStart(4, "0")}`;
};

function drawTransport() {
  const t = state.transport;
  if (!t?.song) {
    byId("t-position").textContent = "–:–";
    byId("t-time").textContent = clock(0) + " / " + clock(0);
    return;
  }
  const elapsed = t.state === "playing" ? (performance.now() - transportAt) / 1000 : 0;
  const seconds = Math.min(t.duration ?? Infinity, (t.seconds || 0) + elapsed);
  const [bar, beat] = String(t.position || "1:1").split(":").map(Number);
  const beats = (bar - 1) * beatsPerBar + (beat || 1) - 1 + (elapsed * (t.tempo || 120)) / 60;
  const position = t.state === "playing"
    ? `${Math.floor(beats / beatsPerBar) + 1}:${Math.floor(beats % beatsPerBar) + 1}`
    : t.position;
  byId("t-position").textContent = position;
  byId("t-time").textContent = `${clock(seconds)} / ${clock(t.duration)}`;
}

setInterval(drawTransport, 100);
setInterval(() => {
  if (state.transport?.state === "playing" && socket?.readyState === WebSocket.OPEN) loadTransport().catch(() => {});
}, 1000);

function transportAction(params) {
  return act("transport", params).then((t) => t && applyTransport(t));
}

function setupTransport() {
  byId("t-play").onclick = () => transportAction({ action: "play" });
  byId("t-pause").onclick = () => transportAction({ action: "pause" });
  byId("t-stop").onclick = () => transportAction({ action: "stop" });
  byId("t-next").onclick = () => transportAction({ action: "next" });
  byId("t-previous").onclick = () => transportAction({ action: "previous" });
  byId("t-tempo").onchange = (e) => {
    const bpm = Number(e.target.value);
    if (!(bpm >= 20 && bpm <= 400)) return;
    // With a song the override plays it at this tempo; without one the hub's own tempo moves.
    if (state.transport?.song) transportAction({ action: "tempo", bpm });
    else act("parameters.set", { node: "transport", parameter: "tempo", value: bpm });
  };
  byId("t-tempo-file").onclick = () => transportAction({ action: "tempo" });
  byId("t-loop").onclick = () => {
    if (state.transport?.loop) return transportAction({ action: "loop" });
    const from = byId("t-loop-from").value.trim();
    const to = byId("t-loop-to").value.trim();
    if (from && to) transportAction({ action: "loop", from, to });
    else showError({ message: "give the loop's start and end, e.g. 2 and 4" });
  };
  byId("t-load").onclick = () => {
    const path = byId("t-load-path").value.trim();
    if (path) transportAction({ action: "load", path });
  };
}

// ---------------------------------------------------------------- graph

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

/** The nodes in rows, top to bottom along the routes (each node one row below its sources). */
function renderGraph() {
  const box = byId("graph");
  const ids = state.nodes.map((n) => n.id);
  const routes = state.connections
    .filter((c) => c.source.startsWith("node:") && c.destination.startsWith("node:"))
    .map((c) => [c.source.slice(5), c.destination.slice(5)])
    .filter(([a, b]) => ids.includes(a) && ids.includes(b));
  const depth = new Map(ids.map((id) => [id, 0]));
  for (let pass = 0; pass < ids.length; pass++) { // longest path; a cycle stops after n passes
    for (const [a, b] of routes) if (depth.get(b) < depth.get(a) + 1) depth.set(b, depth.get(a) + 1);
  }
  const rows = [];
  for (const id of ids) (rows[depth.get(id)] ||= []).push(id);
  const W = 130, H = 44, GAP_X = 20, GAP_Y = 36;
  const columns = Math.max(1, ...rows.map((r) => (r ? r.length : 0)));
  const width = columns * (W + GAP_X) + GAP_X;
  const height = rows.length * (H + GAP_Y) + GAP_Y - 10;
  const at = new Map();
  rows.forEach((row, r) => (row || []).forEach((id, c) => {
    const offset = (width - row.length * (W + GAP_X) + GAP_X) / 2;
    at.set(id, { x: offset + c * (W + GAP_X), y: GAP_Y / 2 + r * (H + GAP_Y) });
  }));
  // Drawn at most half again its natural size: a short chain stays small on a wide screen.
  const drawing = svg("svg", { viewBox: `0 0 ${width} ${Math.max(height, 60)}`, role: "img", "aria-label": "nodes and routes", style: `max-width: ${width * 1.5}px` });
  drawing.append(svg("defs", {}, svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto" },
    svg("path", { d: "M0 0 L10 5 L0 10 z", class: "arrowhead" }))));
  for (const [a, b] of routes) {
    const p = at.get(a), q = at.get(b);
    const x1 = p.x + W / 2, y1 = p.y + H, x2 = q.x + W / 2, y2 = q.y;
    drawing.append(svg("path", {
      class: "route", "data-testid": `route-${a}-${b}`, "marker-end": "url(#arrow)",
      d: `M${x1} ${y1} C${x1} ${(y1 + y2) / 2} ${x2} ${(y1 + y2) / 2} ${x2} ${y2}`,
    }));
  }
  for (const node of state.nodes) {
    const { x, y } = at.get(node.id);
    const label = node.id.length > 16 ? node.id.slice(0, 15) + "…" : node.id;
    const group = svg("g", { class: `gnode kind-${node.kind}`, tabindex: 0, "data-testid": `graph-node-${node.id}` },
      svg("title", {}, `${node.id}: ${node.name}`),
      svg("rect", { x, y, width: W, height: H, rx: 8 }),
      svg("text", { x: x + W / 2, y: y + 19, "text-anchor": "middle", class: "gname" }, label),
      svg("text", { x: x + W / 2, y: y + 35, "text-anchor": "middle", class: "gkind" }, node.kind));
    group.addEventListener("click", () => openNode(node.id));
    group.addEventListener("keydown", (e) => { if (e.key === "Enter") openNode(node.id); });
    drawing.append(group);
  }
  box.replaceChildren(drawing);
  if (!state.nodes.length) box.append(el("p", { class: "empty" }, "No nodes."));
}

function openNode(id) {
  const panel = byId(`node-${id}`);
  if (!panel) return showError({ message: `${id} has no parameters` });
  panel.open = true;
  panel.scrollIntoView({ behavior: "smooth", block: "start" });
  flash(panel);
}

// ---------------------------------------------------------------- ports

async function loadPortsAndConnections() {
  const [ports, connections] = await Promise.all([request("ports.list"), request("connections.list")]);
  state.ports = ports;
  state.connections = connections;
  renderPorts();
  renderGraph();
}

const portLabel = (p) => `${p.clientName ?? ""}:${p.portName ?? ""} (${p.address})`;

function renderPorts() {
  const fill = (select, wanted) => {
    const before = select.value;
    select.replaceChildren(...state.ports
      .filter((p) => p.direction === wanted || p.direction === "duplex")
      .map((p) => el("option", { value: p.address }, portLabel(p))));
    if ([...select.options].some((o) => o.value === before)) select.value = before;
  };
  fill(byId("port-source"), "source");
  fill(byId("port-destination"), "destination");
  byId("connections").replaceChildren(...state.connections.map((c) => el("li", { "data-testid": `connection-${c.source}-${c.destination}` },
    el("span", { class: "grow" }, `${c.source} → ${c.destination}`),
    el("button", {
      class: "small", "data-testid": `disconnect-${c.source}-${c.destination}`,
      onclick: () => act("disconnect", { source: c.source, destination: c.destination }).then((r) => r && loadPortsAndConnections()),
    }, "disconnect"))));
  if (!state.connections.length) byId("connections").append(el("li", { class: "empty" }, "No connections."));
  byId("ports").replaceChildren(...state.ports.map((p) => el("li", { "data-testid": `port-${p.address}` },
    `${portLabel(p)} · ${p.kind} ${p.direction}`)));
}

byId("port-connect").onclick = () => {
  const source = byId("port-source").value;
  const destination = byId("port-destination").value;
  if (source && destination) act("connect", { source, destination }).then((r) => r && loadPortsAndConnections());
};

// ---------------------------------------------------------------- events

const MONITOR_LENGTH = 200;
let monitorPaused = false;

function logEvent(message) {
  if (monitorPaused) return;
  const { event, ...fields } = message;
  const list = byId("monitor");
  const time = new Date().toLocaleTimeString([], { hour12: false });
  list.prepend(el("li", { "data-event": event },
    el("span", { class: "muted" }, time + " "), el("b", {}, event), " " + JSON.stringify(fields)));
  while (list.children.length > MONITOR_LENGTH) list.lastChild.remove();
}

function onEvent(message) {
  logEvent(message);
  switch (message.event) {
    case "parameter-changed":
      showValue(paramKey(message.node, message.parameter), message.value);
      break;
    case "scene-changed":
      markScene(message.scene);
      refreshSoon("triggers", loadTriggers);
      break;
    case "trigger-fired":
      for (const pad of triggerPads(message.trigger)) if (pad.isConnected) flash(pad);
      refreshSoon("triggers", loadTriggers);
      break;
    case "transport-changed":
      applyTransport(message.transport);
      refreshSoon("triggers", loadTriggers); // play, stop and next change state with the song
      break;
    case "mapping-learned": {
      const m = message.mapping;
      endLearn(`Learned ${m.control}${m.channel ? ` ch ${m.channel}` : ""} → ${(m.targets || []).map((t) => `${t.node}.${t.parameter}`).join(", ")}`);
      refreshSoon("mappings", loadMappings);
      break;
    }
    case "learn-ended":
      endLearn(message.reason === "timed-out" ? "Learn timed out: no control moved." : "Learn cancelled.");
      break;
    case "port-appeared":
    case "port-left":
    case "connected":
    case "disconnected":
      refreshSoon("ports", loadPortsAndConnections);
      break;
    case "node-gone":
      refreshSoon("nodes", loadNodesAndWidgets);
      break;
    case "dropped":
      // Events were lost: read everything again rather than show a stale view.
      refreshSoon("all", loadAll);
      break;
    case "stopping":
      setStatus("offline", "the hub is stopping");
      break;
  }
}

// Meters are not pushed: read the widgets a few times a second while some are on screen.
let polling = false;
setInterval(async () => {
  if (polling || document.hidden || socket?.readyState !== WebSocket.OPEN) return;
  if (!state.widgets.some((w) => w.kind === "meter" || w.kind === "label")) return;
  polling = true;
  try {
    const widgets = await request("widgets.list");
    // Other widgets than before: a patch was loaded, so its nodes changed too.
    if (widgetsShape(widgets) !== widgetShape) refreshSoon("nodes", loadNodesAndWidgets);
    else renderWidgets(widgets);
  } catch { /* the status pill shows a lost connection */ }
  polling = false;
}, 250);

// ---------------------------------------------------------------- start

byId("monitor-pause").onclick = (e) => {
  monitorPaused = !monitorPaused;
  e.target.textContent = monitorPaused ? "resume" : "pause";
  e.target.setAttribute("aria-pressed", String(monitorPaused));
};
byId("monitor-clear").onclick = () => byId("monitor").replaceChildren();
byId("learn-cancel").onclick = () => act("learn.cancel");
byId("refresh").onclick = () => loadAll().catch(showError);
setupTransport();
connect();
