// reef play: the page's one Alpine component (Alpine's CSP build: no eval).
//
// Gestures on a device's view are sent in the pixels of its screenshot; the server turns
// them into the device's own coordinate action, plays it as one step of the episode and
// answers with the new state, after which every view is reloaded. Requests go one after
// another (a queue), so fast clicks are played in order.
//
// window.reefTimings: per action, {kind, env, fromEvent, fromSend, server} in ms: from the
// browser event (and from sending the request) to the refreshed view having loaded.

const DRAG_PIXELS = 8; // a press that moves further than this (on the page) is a drag
const DOUBLE_MS = 300; // a second click within this time is a double click (desktop)
const TYPE_IDLE_MS = 700; // typed characters are sent after this pause (or at Enter)
const WHEEL_IDLE_MS = 150; // wheel events within this pause are one scroll
const SPECIAL_KEYS = new Set([
  "Escape", "Tab", "Backspace", "Delete", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight",
  "Home", "End", "PageUp", "PageDown", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9",
  "F10", "F11", "F12",
]);

window.reefTimings = [];

function scaled(img, clientX, clientY) {
  const box = img.getBoundingClientRect();
  const x = Math.round(((clientX - box.left) / box.width) * img.naturalWidth);
  const y = Math.round(((clientY - box.top) / box.height) * img.naturalHeight);
  return {
    x: Math.min(Math.max(x, 0), img.naturalWidth - 1),
    y: Math.min(Math.max(y, 0), img.naturalHeight - 1),
  };
}

function modifiersOf(e) {
  const mods = [];
  if (e.ctrlKey) mods.push("ctrl");
  if (e.altKey) mods.push("alt");
  if (e.shiftKey) mods.push("shift");
  if (e.metaKey) mods.push("meta");
  return mods;
}

document.addEventListener("alpine:init", () => {
  window.Alpine.data("play", () => ({
    author: false,
    devices: [],
    step: null,
    stepLimit: null,
    ended: false,
    answerTask: false,
    result: null,
    run: "",
    last: [],
    userAnswers: [],
    checkpoints: [],
    scripts: [],
    picked: {},
    error: "",
    busy: false,
    roundTrip: "",
    version: 0,
    queue: Promise.resolve(),
    pending: {}, // env -> {t0, sent, server, kind, version}: waiting for the view to load
    press: null,
    clickTimer: null,
    lastClick: null,
    typed: { env: null, text: "", timer: null, t0: 0 },
    wheeled: { env: null, delta: 0, x: 0, y: 0, timer: null, t0: 0, width: 0, height: 0 },

    init() {
      this.author = this.$el.dataset.author === "true";
      this.refresh();
    },

    // ---------------------------------------------------------------- talking to the server
    async refresh() {
      const response = await fetch("/state", { credentials: "same-origin" });
      this.apply(await response.json());
    },

    apply(state) {
      const devices = state.devices.map((d) => ({
        ...d, src: d.view ? `/view/${d.name}?v=${state.version}` : "",
      }));
      this.version = state.version;
      this.devices = devices;
      this.step = state.step;
      this.stepLimit = state.task.step_limit;
      this.answerTask = state.task.answer;
      this.ended = state.ended;
      this.result = state.result;
      this.run = state.run;
      this.last = state.last;
      this.userAnswers = state.user_answers;
      if (state.author) {
        this.checkpoints = state.author.checkpoints;
        this.scripts = state.author.scripts;
      }
      document.body.dataset.version = String(state.version);
      document.body.dataset.ended = String(state.ended);
    },

    // Send one request after the ones before it; measure from `t0` (an event's time).
    send(path, body, timing) {
      this.queue = this.queue.then(() => this.post(path, body, timing));
      return this.queue;
    },

    async post(path, body, timing) {
      if (this.ended) return;
      this.busy = true;
      this.error = "";
      const sent = performance.now();
      try {
        const response = await fetch(path, {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-Reef-Play": "1" },
          body: JSON.stringify(body),
        });
        const answer = await response.json();
        if (!response.ok) {
          this.error = answer.error || `refused (${response.status})`;
          return;
        }
        if (timing && answer.version !== this.version) {
          this.pending[timing.env] = {
            ...timing, sent, server: performance.now() - sent, version: answer.version,
          };
        }
        this.apply(answer);
      } catch (err) {
        this.error = `the server did not answer: ${err}`;
      } finally {
        this.busy = false;
      }
    },

    loaded(e) {
      const img = e.target;
      const wait = this.pending[img.dataset.env];
      if (!wait || !img.src.endsWith(`?v=${wait.version}`)) return;
      delete this.pending[img.dataset.env];
      const now = performance.now();
      const timing = {
        kind: wait.kind, env: wait.env, fromEvent: now - wait.t0, fromSend: now - wait.sent,
        server: wait.server,
      };
      window.reefTimings.push(timing);
      this.roundTrip = `${(timing.fromEvent / 1000).toFixed(2)} s`;
    },

    gesture(env, kind, fields, t0) {
      this.send("/gesture", { env, kind, ...fields }, { env, kind, t0 });
    },

    // ---------------------------------------------------------------- pointer gestures
    device(env) {
      return this.devices.find((d) => d.name === env);
    },

    down(e) {
      const img = e.target;
      img.focus();
      e.preventDefault();
      img.setPointerCapture(e.pointerId);
      this.press = {
        env: img.dataset.env, button: e.button, clientX: e.clientX, clientY: e.clientY,
        at: scaled(img, e.clientX, e.clientY), t0: e.timeStamp,
      };
    },

    up(e) {
      const start = this.press;
      this.press = null;
      if (!start || start.env !== e.target.dataset.env) return;
      const img = e.target;
      const dev = this.device(start.env);
      const moved = Math.hypot(e.clientX - start.clientX, e.clientY - start.clientY);
      this.flushTyped();
      if (start.button === 2) {
        this.gesture(start.env, "right", start.at, start.t0);
      } else if (start.button !== 0) {
        return;
      } else if (moved > DRAG_PIXELS) {
        const to = scaled(img, e.clientX, e.clientY);
        this.gesture(start.env, "drag", { ...start.at, to_x: to.x, to_y: to.y }, start.t0);
      } else if (dev && dev.gestures.double) {
        this.clickOrDouble(start);
      } else {
        this.gesture(start.env, "click", start.at, start.t0);
      }
    },

    // A desktop click waits a moment for a second one: two clicks are one double click.
    clickOrDouble(start) {
      const before = this.lastClick;
      if (before && this.clickTimer && before.env === start.env
          && Math.hypot(before.at.x - start.at.x, before.at.y - start.at.y) <= DRAG_PIXELS) {
        clearTimeout(this.clickTimer);
        this.clickTimer = null;
        this.lastClick = null;
        this.gesture(start.env, "double", before.at, before.t0);
        return;
      }
      this.lastClick = start;
      this.clickTimer = setTimeout(() => {
        this.clickTimer = null;
        this.lastClick = null;
        this.gesture(start.env, "click", start.at, start.t0);
      }, DOUBLE_MS);
    },

    noMenu(e) {
      e.preventDefault();
    },

    wheel(e) {
      e.preventDefault();
      const img = e.target;
      const w = this.wheeled;
      if (w.env !== img.dataset.env) this.flushWheel();
      if (!w.timer) {
        Object.assign(w, { env: img.dataset.env, delta: 0, t0: e.timeStamp, ...scaled(img, e.clientX, e.clientY) });
        w.width = img.naturalWidth;
        w.height = img.naturalHeight;
      }
      w.delta += Math.abs(e.deltaY) >= Math.abs(e.deltaX) ? e.deltaY : e.deltaX;
      w.vertical = Math.abs(e.deltaY) >= Math.abs(e.deltaX);
      clearTimeout(w.timer);
      w.timer = setTimeout(() => this.flushWheel(), WHEEL_IDLE_MS);
    },

    flushWheel() {
      const w = this.wheeled;
      if (!w.timer) return;
      clearTimeout(w.timer);
      w.timer = null;
      if (!w.delta) return;
      const direction = w.vertical ? (w.delta > 0 ? "down" : "up") : (w.delta > 0 ? "right" : "left");
      const amount = Math.min(10, Math.max(1, Math.round(Math.abs(w.delta) / 100)));
      this.gesture(w.env, "scroll", {
        x: w.x, y: w.y, direction, amount, width: w.width, height: w.height,
      }, w.t0);
    },

    // ---------------------------------------------------------------- the keyboard
    key(e) {
      const env = e.target.dataset.env;
      const dev = this.device(env);
      if (!dev) return;
      const mods = modifiersOf(e).filter((m) => m !== "shift" || e.key.length !== 1);
      const printable = e.key.length === 1 && !e.ctrlKey && !e.altKey && !e.metaKey;
      if (printable && dev.gestures.type) {
        e.preventDefault();
        this.addTyped(env, e.key, e.timeStamp);
      } else if (e.key === "Enter" && !mods.length && dev.gestures.type) {
        e.preventDefault();
        this.addTyped(env, "\n", e.timeStamp);
        this.flushTyped();
      } else if ((SPECIAL_KEYS.has(e.key) || (e.key.length === 1 && mods.length)) && dev.gestures.key) {
        e.preventDefault();
        this.flushTyped();
        this.gesture(env, "key", { key: e.key, modifiers: mods }, e.timeStamp);
      }
    },

    addTyped(env, text, t0) {
      const typed = this.typed;
      if (typed.env !== env) this.flushTyped();
      if (!typed.text) typed.t0 = t0;
      typed.env = env;
      typed.text += text;
      clearTimeout(typed.timer);
      typed.timer = setTimeout(() => this.flushTyped(), TYPE_IDLE_MS);
    },

    flushTyped() {
      const typed = this.typed;
      clearTimeout(typed.timer);
      typed.timer = null;
      if (!typed.text) return;
      const text = typed.text;
      typed.text = "";
      this.gesture(typed.env, "type", { text }, typed.t0);
    },

    typeText(e) {
      e.preventDefault();
      const form = e.target;
      let text = form.elements.text.value;
      if (form.elements.enter.checked) text += "\n";
      if (!text) return;
      form.elements.text.value = "";
      this.gesture(form.dataset.env, "type", { text }, e.timeStamp);
    },

    // ---------------------------------------------------------------- other actions
    hint(dev) {
      const g = dev.gestures;
      const can = [];
      if (g.click) can.push("click");
      if (g.double) can.push("double-click");
      if (g.right) can.push(dev.gestures.double ? "right-click" : "right-click (long press)");
      if (g.drag) can.push("drag");
      if (g.scroll) can.push("scroll the wheel");
      if (g.type) can.push("click the view and type");
      return `On this view: ${can.join(", ")}.`;
    },

    textsOf(dev) {
      return Object.entries(dev.texts).map(([name, value]) => ({ name, value }));
    },

    pick(e) {
      const env = e.target.closest("form").dataset.env;
      this.picked = { ...this.picked, [env]: e.target.value };
    },

    fieldsOf(dev) {
      const action = dev.actions.find((a) => a.name === this.picked[dev.name]);
      if (!action) return [];
      const props = action.parameters.properties || {};
      const required = new Set(action.parameters.required || []);
      return Object.entries(props).map(([name, schema]) => ({
        name,
        type: schema.type || (schema.anyOf ? schema.anyOf.map((s) => s.type).find((t) => t !== "null") : "string"),
        hint: `${schema.description || ""}${required.has(name) ? "" : " (optional)"}`.trim(),
      }));
    },

    other(e) {
      e.preventDefault();
      const form = e.target;
      const env = form.dataset.env;
      const dev = this.device(env);
      const name = this.picked[env];
      if (!dev || !name) return;
      const args = {};
      for (const f of this.fieldsOf(dev)) {
        const raw = form.elements[f.name].value;
        if (raw === "") continue;
        if (f.type === "integer" || f.type === "number") args[f.name] = Number(raw);
        else if (f.type === "boolean") args[f.name] = raw === "true";
        else if (f.type === "array") args[f.name] = raw.split(/[+,]/).map((s) => s.trim()).filter(Boolean);
        else args[f.name] = raw;
      }
      this.send("/act", { env, name, arguments: args }, { env, kind: name, t0: e.timeStamp });
    },

    // ---------------------------------------------------------------- finishing, the user
    done(e) {
      this.flushTyped();
      this.send("/act", { env: "root", name: "complete", arguments: {} }, null);
    },

    submitAnswer(e) {
      e.preventDefault();
      this.flushTyped();
      const answer = e.target.elements.answer.value;
      this.send("/act", { env: "root", name: "submit", arguments: { answer } }, null);
    },

    askUser(e) {
      e.preventDefault();
      const kind = e.target.elements.kind.value.trim();
      if (!kind) return;
      e.target.elements.kind.value = "";
      this.send("/act", { env: "root", name: "call_user", arguments: { kind } }, null);
    },

    playScript(e) {
      const id = e.target.dataset.script;
      const env = null;
      this.send("/script", { id }, env);
    },

    get outcome() {
      if (!this.result) return "";
      return this.result.success ? "Solved" : `Not solved (${this.result.termination})`;
    },

    get resultLine() {
      const r = this.result;
      if (!r) return "";
      const pct = Math.round(r.completion_ratio * 100);
      return `${r.steps} steps, ${r.seconds} s, ${pct}% of the checkpoints` + (r.answer !== null ? `, answer "${r.answer}"` : "");
    },
  }));
});
