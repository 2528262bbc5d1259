// Written by embed-web.py from the files in Web/; edit those and run it again.

/// The page's files, compiled in.
enum WebAssets {
    /// Each file by name.
    static let files: [String: WebAsset] = [
        "api.js": WebAsset(
            contentType: "text/javascript; charset=utf-8",
            body: #"""
// The page's only link to the bridge: the `api` websocket, which speaks the MQTT API with topics relative to
// the base topic. Retained topics are kept here by topic; requests carry a transaction and wait for it.

const TOKEN_KEY = 't2m.token';
const REQUEST_TIMEOUT = 20000;

export class Connection extends EventTarget {
  constructor() {
    super();
    this.retained = new Map();
    this.updated = new Map();
    this.pending = new Map();
    this.transaction = 0;
    this.attempt = 0;
    this.socket = null;
    this.status = 'connecting';
  }

  get token() { return localStorage.getItem(TOKEN_KEY) || ''; }
  set token(value) { if (value) localStorage.setItem(TOKEN_KEY, value); else localStorage.removeItem(TOKEN_KEY); }

  connect() {
    // Relative to the page, so any prefix (a proxy, Home Assistant's ingress) is kept.
    const url = new URL('api', document.baseURI);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      // Always first, also when the bridge asks for no token: it is never put in the URL, where proxies log it.
      socket.send(JSON.stringify({ auth: this.token }));
      this.retained.clear();
      this.attempt = 0;
      this.setStatus('open');
    };
    socket.onmessage = (event) => {
      let frame;
      try { frame = JSON.parse(event.data); } catch { return; }
      this.receive(frame);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      for (const { reject, timer } of this.pending.values()) { clearTimeout(timer); reject(new Error('connection lost')); }
      this.pending.clear();
      if (event.code === 4401) { this.setStatus('unauthorized'); return; }
      this.setStatus('closed');
      const delay = Math.min(15000, 500 * 2 ** this.attempt++);
      setTimeout(() => { if (!this.socket) this.connect(); }, delay);
    };
  }

  /// Closes and connects again (after a new token, or to log out).
  reconnect() {
    const old = this.socket;
    this.socket = null;
    if (old) old.close();
    this.connect();
  }

  setStatus(status) {
    this.status = status;
    this.dispatchEvent(new CustomEvent('status', { detail: status }));
  }

  receive(frame) {
    if (frame.error) {
      this.dispatchEvent(new CustomEvent('failure', { detail: frame.error }));
      return;
    }
    const { topic, payload } = frame;
    if (typeof topic !== 'string') return;
    if (topic.startsWith('bridge/response/')) {
      const waiting = payload && this.pending.get(String(payload.transaction));
      if (waiting) {
        this.pending.delete(String(payload.transaction));
        clearTimeout(waiting.timer);
        if (payload.status === 'ok') waiting.resolve(payload.data); else waiting.reject(new Error(payload.error || 'failed'));
      }
      return;
    }
    if (topic === 'bridge/event' || topic.endsWith('/event')) {
      this.dispatchEvent(new CustomEvent('event', { detail: { topic, payload, at: Date.now() } }));
      return;
    }
    if (payload === '') this.retained.delete(topic); else this.retained.set(topic, payload);
    this.updated.set(topic, Date.now());
    this.dispatchEvent(new CustomEvent('message', { detail: { topic, payload } }));
  }

  /// Sends a message exactly as it would be published on MQTT under the base topic.
  publish(topic, payload) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) throw new Error('not connected');
    this.socket.send(JSON.stringify({ topic, payload }));
  }

  /// `bridge/request/<name>`; resolves with the response's data or rejects with its error.
  request(name, payload = {}) {
    const transaction = `p${Date.now().toString(36)}-${++this.transaction}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(transaction);
        reject(new Error(`no answer to ${name} within 20 s`));
      }, REQUEST_TIMEOUT);
      this.pending.set(transaction, { resolve, reject, timer });
      try {
        this.publish(`bridge/request/${name}`, { ...payload, transaction });
      } catch (error) {
        clearTimeout(timer);
        this.pending.delete(transaction);
        reject(error);
      }
    });
  }

  get devices() { return Array.isArray(this.retained.get('bridge/devices')) ? this.retained.get('bridge/devices') : []; }
  get info() { return this.retained.get('bridge/info') || null; }
  device(id) { return this.devices.find((device) => device.id === id) || null; }
  state(device) { return this.retained.get(device.alias) || {}; }
  availability(device) { return this.retained.get(`${device.alias}/availability`)?.state || device.status || 'unknown'; }
  lastUpdate(device) { return this.updated.get(device.alias) || null; }
}
"""#),
        "app.js": WebAsset(
            contentType: "text/javascript; charset=utf-8",
            body: #"""
// The page: one websocket connection, a hash router over the views, the theme, sign-in and the banner.
import { Connection } from './api.js';
import { choice, toast } from './ui.js';
import { DevicesView } from './devices.js';
import { DeviceView } from './device.js';
import { BLEView } from './ble.js';
import { BridgeView } from './bridge.js';
import { LogsView, remember } from './logs.js';

const connection = new Connection();
const view = document.getElementById('view');
const theme = choice('theme', 'auto');
let current = null;
let route = '';
let scheduled = false;

function applyTheme() {
  const value = theme.get();
  if (value === 'auto') delete document.documentElement.dataset.theme; else document.documentElement.dataset.theme = value;
  document.getElementById('theme').textContent = { auto: 'Theme: auto', light: 'Theme: light', dark: 'Theme: dark' }[value];
}

function open() {
  const hash = location.hash || '#/devices';
  if (hash === route && current) return;
  route = hash;
  const [, page = 'devices', ...rest] = hash.slice(1).split('/');
  current?.unmount?.();
  view.replaceChildren();
  const views = { devices: DevicesView, device: DeviceView, ble: BLEView, bridge: BridgeView, logs: LogsView };
  const View = views[page] || DevicesView;
  current = new View(connection, decodeURIComponent(rest.join('/')));
  current.mount(view);
  for (const link of document.querySelectorAll('#nav a')) link.classList.toggle('active', link.dataset.page === (page === 'device' ? 'devices' : page));
}

/// Coalesces bursts of messages into one update per frame.
function refresh() {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    banner();
    current?.update?.();
  });
}

function banner() {
  const info = connection.info;
  const element = document.getElementById('banner');
  const needed = info?.restart_required;
  element.hidden = !needed;
  if (needed) element.textContent = `Restart things2mqtt to apply the changed config: ${(info.restart_required_for || []).join(', ')}`;
}

function showLogin(visible, message = '') {
  document.getElementById('login').hidden = !visible;
  document.getElementById('login-error').textContent = message;
  view.hidden = visible;
  if (visible) document.getElementById('token').focus();
}

connection.addEventListener('status', ({ detail }) => {
  const link = document.getElementById('link');
  link.classList.toggle('open', detail === 'open');
  link.title = { open: 'Connected', closed: 'Reconnecting…', unauthorized: 'Sign-in needed', connecting: 'Connecting…' }[detail];
  document.getElementById('logout').hidden = !connection.token;
  if (detail === 'unauthorized') showLogin(true, connection.token ? 'Wrong token' : '');
  if (detail === 'open') showLogin(false);
  refresh();
});
connection.addEventListener('message', refresh);
connection.addEventListener('event', (event) => { remember(event.detail); current?.event?.(event.detail); });
connection.addEventListener('failure', ({ detail }) => toast(detail, true));

document.getElementById('login').addEventListener('submit', (event) => {
  event.preventDefault();
  connection.token = document.getElementById('token').value;
  document.getElementById('token').value = '';
  connection.reconnect();
});
document.getElementById('logout').addEventListener('click', () => {
  connection.token = '';
  connection.reconnect();
});
document.getElementById('theme').addEventListener('click', () => {
  theme.set({ auto: 'light', light: 'dark', dark: 'auto' }[theme.get()] || 'auto');
  applyTheme();
});
window.addEventListener('hashchange', open);
// Relative times stay live without messages.
setInterval(() => current?.tick?.(), 1000);

applyTheme();
open();
connection.connect();
window.things2mqtt = connection;
"""#),
        "ble.js": WebAsset(
            contentType: "text/javascript; charset=utf-8",
            body: #"""
// BLE: the adapter's status, the permit window with its countdown, the devices in range and the policies.
import { ago, attempt, displayName, h, signal } from './ui.js';

export class BLEView {
  constructor(connection) { this.connection = connection; }

  mount(root) {
    this.adapter = h('div', { class: 'grid2', id: 'ble-adapter' });
    this.countdown = h('span', { id: 'permit-countdown', class: 'muted' });
    this.devices = h('div', { class: 'list', id: 'ble-devices' });
    this.policies = h('pre', { id: 'ble-policies' });
    const seconds = h('select', { 'aria-label': 'Window length' }, ...[60, 120, 300, 600].map((value) => h('option', { value }, `${value} s`)));
    seconds.value = '120';
    root.append(
      h('h1', {}, 'BLE'),
      h('div', { class: 'card' }, h('h2', {}, 'Adapter'), this.adapter),
      h('div', { class: 'card' }, h('h2', {}, 'Permit window'),
        h('p', { class: 'muted' }, 'While it is open, any BLE device in range appears as a device.'),
        h('div', { class: 'tools' },
          seconds,
          h('button', { type: 'button', class: 'primary', id: 'permit-open', onclick: () => this.permit(Number(seconds.value)) }, 'Open'),
          h('button', { type: 'button', id: 'permit-close', onclick: () => this.permit(0) }, 'Close'),
          this.countdown)),
      h('div', { class: 'card' }, h('h2', {}, 'Devices'), this.devices),
      h('div', { class: 'card' }, h('h2', {}, 'Connect policies'), this.policies));
    this.update();
  }

  permit(time) {
    attempt(() => this.connection.request('ble/permit', { time }), time ? `Permit window open for ${time} s` : 'Permit window closed')
      .then((data) => { if (data) { this.connection.permitUntil = time ? Date.parse(data.until) : 0; this.tick(); } });
  }

  update() {
    const ble = this.connection.info?.integrations?.ble;
    const entries = ble ? Object.entries(ble) : [['status', 'not reported']];
    this.adapter.replaceChildren(...entries.flatMap(([key, value]) => [h('span', { class: 'muted' }, key.replaceAll('_', ' ')), h('span', {}, value === null ? '—' : String(value))]));
    const devices = this.connection.devices.filter((device) => device.integration === 'ble')
      .map((device) => ({ device, state: this.connection.state(device) }))
      .sort((a, b) => (b.state.rssi ?? -999) - (a.state.rssi ?? -999));
    this.devices.replaceChildren(...devices.map(({ device, state }) => h('a', { class: 'device', href: `#/device/${encodeURIComponent(device.id)}`, 'data-id': device.id },
      h('div', { class: 'name' }, displayName(device)),
      h('div', { class: 'figures' }, h('span', {}, device.model), signal(state.rssi), h('span', {}, state.status || device.device_status || ''),
        state.last_seen ? h('span', {}, ago(Date.parse(state.last_seen))) : null))));
    if (!devices.length) this.devices.append(h('p', { class: 'muted' }, 'No BLE device admitted yet.'));
    const config = this.connection.info?.config?.ble;
    this.policies.textContent = config ? JSON.stringify(config.connect ?? config, null, 2) : '—';
    this.tick();
  }

  tick() {
    const left = Math.round(((this.connection.permitUntil || 0) - Date.now()) / 1000);
    this.countdown.textContent = left > 0 ? `open, ${left} s left` : 'closed';
  }
}
"""#),
        "bridge.js": WebAsset(
            contentType: "text/javascript; charset=utf-8",
            body: #"""
// Bridge: version, broker, each integration's status and figures, health and the log level.
import { attempt, h } from './ui.js';

const LEVELS = ['trace', 'debug', 'info', 'notice', 'warning', 'error', 'critical'];

export class BridgeView {
  constructor(connection) { this.connection = connection; }

  mount(root) {
    this.summary = h('div', { class: 'grid2', id: 'bridge-summary' });
    this.integrations = h('div', { id: 'bridge-integrations' });
    this.health = h('pre', { id: 'bridge-health', class: 'muted' }, 'Not asked yet.');
    this.level = h('select', { id: 'log-level', 'aria-label': 'Log level', onchange: () => this.setLevel() }, ...LEVELS.map((level) => h('option', { value: level }, level)));
    root.append(
      h('h1', {}, 'Bridge'),
      h('div', { class: 'card' }, this.summary),
      h('div', { class: 'card' }, h('h2', {}, 'Integrations'), this.integrations),
      h('div', { class: 'card' }, h('h2', {}, 'Log level'), this.level),
      h('div', { class: 'card' }, h('h2', {}, 'Health'),
        h('button', { type: 'button', id: 'health-check', onclick: () => this.check() }, 'Check now'), this.health));
    this.update();
  }

  setLevel() {
    attempt(() => this.connection.request('options', { options: { log_level: this.level.value } }), `Log level ${this.level.value}`);
  }

  check() {
    attempt(() => this.connection.request('health_check')).then((data) => { if (data) this.health.textContent = JSON.stringify(data, null, 2); });
  }

  update() {
    const info = this.connection.info || {};
    const state = this.connection.retained.get('bridge/state')?.state || 'unknown';
    const rows = [
      ['Version', info.version], ['Bridge', state], ['Broker', info.config?.mqtt?.server], ['Base topic', info.base_topic],
      ['Home Assistant', info.homeassistant ? (info.homeassistant.enabled ? `discovery under ${info.homeassistant.discovery_prefix}` : 'off') : undefined],
      ['Restart needed', info.restart_required ? `yes: ${(info.restart_required_for || []).join(', ')}` : 'no'],
    ];
    this.summary.replaceChildren(...rows.flatMap(([key, value]) => [h('span', { class: 'muted' }, key), h('span', {}, value ?? '—')]));
    if (document.activeElement !== this.level && info.log_level) this.level.value = info.log_level;
    const integrations = Object.entries(info.integrations || {});
    this.integrations.replaceChildren(...integrations.map(([name, entry]) => h('div', { class: 'card', 'data-integration': name },
      h('h2', {}, name.toUpperCase(), ' ', h('span', { class: `pill ${entry.status === 'running' ? 'online' : entry.status === 'disabled' ? 'unknown' : 'offline'}` }, entry.status)),
      h('div', { class: 'grid2' }, ...Object.entries(entry).filter(([key]) => key !== 'status').flatMap(([key, value]) =>
        [h('span', { class: 'muted' }, key.replaceAll('_', ' ')), h('span', {}, value === null ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value))])))));
  }
}
"""#),
        "controls.js": WebAsset(
            contentType: "text/javascript; charset=utf-8",
            body: #"""
// A device's exposes as controls. Each control knows the state path it shows and sends a `/set` with the
// same nested object MQTT would carry; values shown are refreshed from the state unless being edited.

const READ = 1;
const SET = 2;

export function valueAt(state, path) {
  return path.reduce((value, key) => (value && typeof value === 'object' ? value[key] : undefined), state);
}

function nest(path, value) {
  return path.reduceRight((inner, key) => ({ [key]: inner }), value);
}

/// Builds the controls; returns { elements, updaters } where each updater takes the whole state.
export function buildControls(exposes, send, h) {
  const updaters = [];
  const elements = [];
  const stops = [];
  let stopAll = null;
  const walk = (list, path, into, qualifiers) => {
    for (const expose of list || []) {
      const where = expose.property ? [...path, expose.property] : path;
      if (expose.type === 'light') { into.push(light(expose.light || {}, send, h, updaters)); continue; }
      if (expose.type === 'composite') {
        const box = h('fieldset', {}, h('legend', {}, expose.name || expose.property));
        const inner = [];
        const held = [];
        walk(expose.features, where, inner, held);
        if (held.length) inner.push(command(held, where, send, h));
        if (!inner.length) continue;
        box.append(...inner);
        into.push(box);
        continue;
      }
      if (expose.type === 'action' && expose.property === 'stop') {
        if (path.length) stops.push({ path, payload: expose.values?.[0] ?? 'stop' }); else stopAll = { stop: expose.values?.[0] ?? true };
      }
      // Inside a composite, values that are only ever sent (a motor's power, a move's time or degrees, its
      // brake) go together in one command rather than one message each.
      const access = expose.access ?? READ;
      if (qualifiers && (access & SET) && !(access & READ) && (expose.type === 'numeric' || expose.type === 'binary')) {
        qualifiers.push({ expose, path: where });
        continue;
      }
      const control = single(expose, where, send, h, updaters);
      if (control) into.push(control);
    }
  };
  walk(exposes, [], elements, null);
  if (stopAll || stops.length) {
    // One big press stops every motor: the device's own stop, else each composite's stop in its place.
    const payload = stopAll || Object.assign({}, ...stops.map(({ path, payload }) => nest(path, payload)));
    elements.unshift(h('button', { type: 'button', class: 'danger stop', id: 'stop-all', onclick: () => send(payload) }, 'STOP'));
  }
  return { elements, updaters };
}

/// Inputs for values that are only sent, and one button that sends those filled in as one `/set`.
function command(held, path, send, h) {
  const fields = held.map(({ expose, path: where }) => {
    const label = expose.name || expose.property;
    const id = `control-${where.join('-')}`;
    const input = expose.type === 'numeric'
      ? h('input', { type: 'number', id, min: expose.minimum, max: expose.maximum, step: expose.step ?? 1, placeholder: expose.unit || '', 'aria-label': label, style: 'width:7em' })
      : h('select', { id, 'aria-label': label }, h('option', { value: '' }, '—'), h('option', { value: 'on' }, 'on'), h('option', { value: 'off' }, 'off'));
    const value = () => {
      if (input.value === '') return undefined;
      if (expose.type === 'numeric') return Number(input.value);
      return input.value === 'on' ? (expose.value_on ?? true) : (expose.value_off ?? false);
    };
    return { key: expose.property, input, value, label: h('label', { for: id }, label) };
  });
  const button = h('button', { type: 'button', class: 'primary', id: `send-${path.join('-')}`, onclick: () => {
    const payload = {};
    for (const field of fields) { const value = field.value(); if (value !== undefined) payload[field.key] = value; }
    if (Object.keys(payload).length) send(nest(path, payload));
  } }, 'Send');
  return h('div', { class: 'control' }, h('div', { class: 'row' }, ...fields.map((field) => h('span', { class: 'field' }, field.label, field.input))), h('div', { class: 'row' }, button));
}

function row(h, label, ...children) {
  return h('div', { class: 'control' }, h('label', {}, label), h('div', { class: 'row' }, ...children));
}

function throttled(send, delay = 120) {
  let timer = null;
  let last = null;
  return (payload) => {
    last = payload;
    if (timer) return;
    send(payload);
    last = null;
    timer = setTimeout(() => { timer = null; if (last) send(last); }, delay);
  };
}

function single(expose, path, send, h, updaters) {
  const access = expose.access ?? READ;
  const label = expose.name || expose.property;
  const unit = expose.unit ? ` ${expose.unit}` : '';
  if (!(access & SET)) return null;
  const id = `control-${path.join('-')}`;
  switch (expose.type) {
    case 'binary': {
      const on = expose.value_on ?? true;
      const off = expose.value_off ?? false;
      const button = h('button', { type: 'button', class: 'switch', id, 'aria-pressed': 'false', onclick: () => send(nest(path, button.getAttribute('aria-pressed') === 'true' ? off : on)) }, 'Off');
      updaters.push((state) => { const value = valueAt(state, path) === on; button.setAttribute('aria-pressed', String(value)); button.textContent = value ? 'On' : 'Off'; });
      return row(h, label, button);
    }
    case 'numeric': {
      const min = expose.minimum ?? 0;
      const max = expose.maximum ?? 100;
      const slider = h('input', { type: 'range', id, min, max, step: expose.step ?? 1, value: min < 0 ? 0 : min, 'aria-label': label });
      const output = h('output', { for: id }, '');
      const push = throttled(send);
      slider.addEventListener('input', () => { output.textContent = slider.value + unit; push(nest(path, Number(slider.value))); });
      slider.addEventListener('change', () => send(nest(path, Number(slider.value))));
      updaters.push((state) => {
        const value = valueAt(state, path);
        if (typeof value !== 'number' || document.activeElement === slider) return;
        slider.value = value;
        output.textContent = value + unit;
      });
      return row(h, label, slider, output);
    }
    case 'enum': {
      const select = h('select', { id, 'aria-label': label, onchange: () => send(nest(path, select.value)) }, ...(expose.values || []).map((value) => h('option', { value }, value)));
      updaters.push((state) => { const value = valueAt(state, path); if (value !== undefined && document.activeElement !== select) select.value = value; });
      return row(h, label, select);
    }
    case 'text': {
      const input = h('input', { type: 'text', id, 'aria-label': label });
      const button = h('button', { type: 'button', onclick: () => send(nest(path, input.value)) }, 'Send');
      updaters.push((state) => { const value = valueAt(state, path); if (typeof value === 'string' && document.activeElement !== input) input.value = value; });
      return row(h, label, input, button);
    }
    case 'scene':
      return row(h, label, h('button', { type: 'button', id, onclick: () => send(nest(path, expose.values?.[0] ?? label)) }, 'Activate'));
    case 'action':
      return row(h, label, ...(expose.values?.length ? expose.values : [true]).map((value) =>
        h('button', { type: 'button', id: `${id}-${value}`, onclick: () => send(nest(path, value)) }, value === true ? label : String(value))));
    default:
      return null;
  }
}

function hexToHS(hex) {
  const [r, g, b] = [1, 3, 5].map((index) => parseInt(hex.slice(index, index + 2), 16) / 255);
  const max = Math.max(r, g, b);
  const delta = max - Math.min(r, g, b);
  let hue = 0;
  if (delta) hue = max === r ? ((g - b) / delta) % 6 : max === g ? (b - r) / delta + 2 : (r - g) / delta + 4;
  return { h: Math.round(((hue * 60) + 360) % 360), s: Math.round(max ? (delta / max) * 100 : 0) };
}

function hsToHex({ h: hue = 0, s = 0 }) {
  const f = (n) => { const k = (n + hue / 60) % 6; return 1 - (s / 100) * Math.max(0, Math.min(k, 4 - k, 1)); };
  return '#' + [f(5), f(3), f(1)].map((value) => Math.round(value * 255).toString(16).padStart(2, '0')).join('');
}

function light(features, send, h, updaters) {
  const box = h('fieldset', { class: 'light' }, h('legend', {}, 'Light'));
  const power = h('button', { type: 'button', class: 'switch', id: 'light-state', 'aria-pressed': 'false', onclick: () => send({ state: power.getAttribute('aria-pressed') === 'true' ? 'OFF' : 'ON' }) }, 'Off');
  box.append(row(h, 'Power', power));
  updaters.push((state) => { const on = state.state === 'ON'; power.setAttribute('aria-pressed', String(on)); power.textContent = on ? 'On' : 'Off'; });
  if (features.brightness) {
    const slider = h('input', { type: 'range', id: 'light-brightness', min: 1, max: 255, value: 255, 'aria-label': 'Brightness' });
    slider.addEventListener('change', () => send({ state: 'ON', brightness: Number(slider.value) }));
    updaters.push((state) => { if (typeof state.brightness === 'number' && document.activeElement !== slider) slider.value = state.brightness; });
    box.append(row(h, 'Brightness', slider));
  }
  const modes = features.color_modes || [];
  if (modes.includes('color_temp') && features.min_kelvin) {
    const slider = h('input', { type: 'range', id: 'light-color-temp', min: features.min_kelvin, max: features.max_kelvin, step: 50, 'aria-label': 'Colour temperature' });
    const output = h('output', {}, '');
    slider.addEventListener('input', () => { output.textContent = `${slider.value} K`; });
    slider.addEventListener('change', () => send({ state: 'ON', color_temp: Number(slider.value) }));
    updaters.push((state) => { if (typeof state.color_temp === 'number' && document.activeElement !== slider) { slider.value = state.color_temp; output.textContent = `${state.color_temp} K`; } });
    box.append(row(h, 'Colour temperature', slider, output));
  }
  if (modes.includes('hs')) {
    const picker = h('input', { type: 'color', id: 'light-color', 'aria-label': 'Colour' });
    picker.addEventListener('change', () => send({ state: 'ON', color: hexToHS(picker.value) }));
    updaters.push((state) => { if (state.color && document.activeElement !== picker) picker.value = hsToHex(state.color); });
    box.append(row(h, 'Colour', picker));
  }
  if (features.effects?.length) {
    box.append(row(h, 'Effect', ...features.effects.map((effect) => h('button', { type: 'button', onclick: () => send({ effect }) }, effect))));
  }
  return box;
}
"""#),
        "device.js": WebAsset(
            contentType: "text/javascript; charset=utf-8",
            body: #"""
// One device: its live state, its exposes as controls, rename, and connection control for BLE and EV3.
import { buildControls } from './controls.js';
import { ago, attempt, displayName, h, signal, toast } from './ui.js';

const CONNECTING = ['ble', 'ev3'];

export class DeviceView {
  constructor(connection, id) {
    this.connection = connection;
    this.id = id;
    this.shape = '';
    this.events = [];
  }

  mount(root) {
    this.root = root;
    this.update();
  }

  get device() { return this.connection.device(this.id); }

  send(payload) {
    const device = this.device;
    if (!device) return;
    try { this.connection.publish(`${device.alias}/set`, payload); } catch (error) { toast(error.message, true); }
  }

  /// Rebuilds the page when the device's shape (alias, exposes) changes, else refreshes the values.
  update() {
    const device = this.device;
    const shape = device ? JSON.stringify([device.alias, device.exposes, device.remembered]) : 'none';
    if (shape !== this.shape) {
      this.shape = shape;
      this.build(device);
    }
    if (!device) return;
    const state = this.connection.state(device);
    const availability = this.connection.availability(device);
    this.status.replaceChildren(h('span', { class: `pill ${availability}`, 'data-availability': availability }, state.status || device.device_status || availability), ' ', signal(state.rssi) || '');
    for (const update of this.updaters) update(state);
    this.state.replaceChildren(...Object.entries(state).sort(([a], [b]) => a.localeCompare(b)).flatMap(([key, value]) =>
      [h('span', { class: 'muted' }, key), h('span', { 'data-key': key }, typeof value === 'object' ? JSON.stringify(value) : String(value))]));
    this.tick();
  }

  build(device) {
    if (!device) {
      this.root.replaceChildren(h('h1', {}, 'Device'), h('p', { class: 'muted' }, this.connection.status === 'open' ? `No device ${this.id}.` : 'Connecting…'), h('a', { href: '#/devices' }, 'All devices'));
      return;
    }
    this.status = h('div', { id: 'device-status' });
    this.state = h('div', { class: 'grid2', id: 'device-state' });
    this.seen = h('p', { class: 'muted' });
    const { elements, updaters } = buildControls(device.exposes, (payload) => this.send(payload), h);
    this.updaters = updaters;
    this.eventList = h('div', { class: 'events', id: 'device-events' });
    const sections = [
      h('p', {}, h('a', { href: '#/devices' }, '← Devices')),
      h('h1', { id: 'device-name' }, displayName(device)),
      h('p', { class: 'muted' }, `${device.id} · ${device.integration.toUpperCase()} · ${device.manufacturer} ${device.model}`),
      h('div', { class: 'card' }, this.status, this.seen),
    ];
    if (elements.length) sections.push(h('div', { class: 'card', id: 'controls' }, h('h2', {}, 'Controls'), ...elements));
    sections.push(h('div', { class: 'card' }, h('h2', {}, 'State'), this.state));
    if ((device.exposes || []).some((expose) => expose.type === 'event')) sections.push(h('div', { class: 'card' }, h('h2', {}, 'Last events'), this.eventList));
    if (device.homeassistant !== false && this.connection.info?.homeassistant?.enabled) sections.push(entitiesCard(device));
    sections.push(this.renameCard(device));
    if (CONNECTING.includes(device.integration)) sections.push(this.connectionCard(device));
    if (Array.isArray(device.details?.gatt)) sections.push(this.gattCard(device));
    this.root.replaceChildren(...sections);
  }

  renameCard(device) {
    const input = h('input', { type: 'text', id: 'rename-to', value: device.alias, 'aria-label': 'New name', required: true });
    const homeassistant = h('input', { type: 'checkbox', id: 'rename-ha', checked: true });
    const form = h('form', { class: 'card', id: 'rename' },
      h('h2', {}, 'Rename'),
      h('div', { class: 'control' }, h('label', { for: 'rename-to' }, 'Name (its MQTT topic; / makes folders)'), input),
      h('div', { class: 'control' }, h('label', {}, homeassistant, ' Rename the Home Assistant entity too')),
      h('button', { type: 'submit', class: 'primary' }, 'Rename'));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const to = input.value.trim();
      if (!to || to === device.alias) return;
      attempt(() => this.connection.request('device/rename', { from: device.id, to, homeassistant_rename: homeassistant.checked }), `Renamed to ${to}`);
    });
    return form;
  }

  connectionCard(device) {
    const request = (name, payload, done) => attempt(() => this.connection.request(name, { device: device.id, ...payload }), done);
    return h('div', { class: 'card', id: 'connection' },
      h('h2', {}, 'Connection'),
      h('div', { class: 'tools' },
        h('button', { type: 'button', id: 'connect', onclick: () => request('device/connect', {}, 'Connected') }, 'Connect'),
        h('button', { type: 'button', id: 'disconnect', onclick: () => request('device/disconnect', {}, 'Disconnected') }, 'Disconnect'),
        device.remembered
          ? h('button', { type: 'button', id: 'forget', onclick: () => request('device/remember', { remember: false }, 'Forgotten') }, 'Forget')
          : h('button', { type: 'button', id: 'remember', onclick: () => request('device/remember', { remember: true }, 'Remembered') }, 'Remember')),
      h('p', { class: 'muted' }, device.remembered ? 'Remembered: connected whenever it is in range.' : 'Not remembered.'));
  }

  /// The connected device's GATT tree, each characteristic with what its flags allow: read, write, notify.
  gattCard(device) {
    const request = (name, payload) => this.connection.request(name, { device: device.id, ...payload });
    const services = device.details.gatt.map((service) => h('fieldset', {},
      h('legend', {}, service.name || service.uuid),
      ...(service.characteristics || []).map((characteristic) => {
        const flags = characteristic.flags || [];
        const target = { characteristic: characteristic.uuid, service: service.uuid };
        const output = h('code', { class: 'muted' }, '');
        const hex = h('input', { type: 'text', placeholder: 'hex, e.g. c0ffee', 'aria-label': 'Value to write', size: 10 });
        const read = () => attempt(() => request('ble/read', target)).then((data) => {
          if (data) output.textContent = data.value !== undefined ? `${JSON.stringify(data.value)} (${data.hex})` : data.hex;
        });
        const write = () => attempt(() => request('ble/write', { ...target, hex: hex.value.trim() }), 'Written');
        const notify = (enable) => attempt(() => request('ble/notify', { ...target, enable }), enable ? 'Notifications on' : 'Notifications off');
        return h('div', { class: 'control', 'data-characteristic': characteristic.uuid },
          h('label', {}, characteristic.name || characteristic.uuid, ' ', h('span', { class: 'muted' }, flags.join(', '))),
          h('div', { class: 'row' },
            flags.includes('read') ? h('button', { type: 'button', onclick: read }, 'Read') : null,
            flags.some((flag) => flag.startsWith('write')) ? [hex, h('button', { type: 'button', onclick: write }, 'Write')] : null,
            flags.includes('notify') || flags.includes('indicate')
              ? [h('button', { type: 'button', onclick: () => notify(true) }, 'Notify'), h('button', { type: 'button', onclick: () => notify(false) }, 'Stop')] : null,
            output));
      })));
    return h('div', { class: 'card', id: 'gatt' }, h('h2', {}, 'GATT'), h('p', { class: 'muted' }, 'Notified values appear in the state under gatt.'), ...services);
  }

  event({ topic, payload }) {
    const device = this.device;
    if (!device || topic !== `${device.alias}/event` || !this.eventList) return;
    this.events = [{ payload, at: Date.now() }, ...this.events].slice(0, 20);
    this.eventList.replaceChildren(...this.events.map(({ payload, at }) =>
      h('div', { class: 'event' }, h('span', { class: 'ago', 'data-time': at }, ago(at)), ' ', `${payload.property || ''} ${payload.event_type || ''}`)));
  }

  tick() {
    const device = this.device;
    if (!device || !this.seen) return;
    const state = this.connection.state(device);
    const seen = state.last_seen ? Date.parse(state.last_seen) : this.connection.lastUpdate(device);
    this.seen.textContent = `Last seen ${ago(seen)}`;
    for (const element of this.root.querySelectorAll('.ago[data-time]')) element.textContent = ago(Number(element.dataset.time));
  }
}

/// The Home Assistant entity each expose leaf becomes, as the bridge's discovery makes them.
function component(expose) {
  const settable = (expose.access ?? 1) & 2;
  const readable = (expose.access ?? 1) & 1;
  switch (expose.type) {
    case 'light': return 'light';
    case 'binary': return settable && readable ? 'switch' : 'binary_sensor';
    case 'numeric': return settable && readable ? 'number' : 'sensor';
    case 'enum': return settable && readable ? 'select' : 'sensor';
    case 'text': return settable && readable ? 'text' : 'sensor';
    case 'action': return 'button';
    case 'scene': return 'scene';
    case 'event': return 'event';
    default: return null;
  }
}

function entitiesCard(device) {
  const rows = [];
  const walk = (list, names) => {
    for (const expose of list || []) {
      const name = [...names, expose.name || expose.property].filter(Boolean).join(' ');
      if (expose.type === 'composite') { walk(expose.features, [...names, expose.name || expose.property]); continue; }
      // Values that only qualify a command (a move's time) get no entity.
      if ((expose.access ?? 1) === 2 && expose.type !== 'action' && expose.type !== 'scene') continue;
      const kind = component(expose);
      if (kind) rows.push([kind, name]);
    }
  };
  walk(device.exposes, []);
  return h('div', { class: 'card', id: 'ha-entities' }, h('h2', {}, 'Home Assistant entities'),
    h('div', { class: 'grid2' }, ...rows.flatMap(([kind, name]) => [h('span', { class: 'muted' }, kind), h('span', {}, name)])));
}
"""#),
        "devices.js": WebAsset(
            contentType: "text/javascript; charset=utf-8",
            body: #"""
// Devices: every device the bridge knows, live, with its availability, signal, battery and last sighting.
import { ago, choice, displayName, h, signal } from './ui.js';

const sortChoice = choice('devices.sort', 'name');
const familyChoice = choice('devices.family', '');
const textChoice = choice('devices.filter', '');

const sorts = {
  name: (a, b) => a.name.localeCompare(b.name),
  family: (a, b) => a.device.integration.localeCompare(b.device.integration) || a.name.localeCompare(b.name),
  status: (a, b) => a.availability.localeCompare(b.availability) || a.name.localeCompare(b.name),
  signal: (a, b) => (b.state.rssi ?? -999) - (a.state.rssi ?? -999),
  battery: (a, b) => (a.state.battery ?? 999) - (b.state.battery ?? 999),
  seen: (a, b) => (b.seen ?? 0) - (a.seen ?? 0),
};

export class DevicesView {
  constructor(connection) { this.connection = connection; }

  mount(root) {
    this.search = h('input', { type: 'search', placeholder: 'Filter by name, id, model…', value: textChoice.get(), 'aria-label': 'Filter', oninput: () => { textChoice.set(this.search.value); this.update(); } });
    this.family = h('select', { 'aria-label': 'Family', onchange: () => { familyChoice.set(this.family.value); this.update(); } });
    this.sort = h('select', { 'aria-label': 'Sort by', onchange: () => { sortChoice.set(this.sort.value); this.update(); } },
      ...Object.keys(sorts).map((key) => h('option', { value: key }, `Sort: ${key}`)));
    this.sort.value = sortChoice.get();
    this.count = h('p', { class: 'muted', id: 'device-count' });
    this.list = h('div', { class: 'list', id: 'devices' });
    root.append(h('h1', {}, 'Devices'), h('div', { class: 'tools' }, this.search, this.family, this.sort), this.count, this.list);
    this.update();
  }

  rows() {
    const connection = this.connection;
    return connection.devices.map((device) => {
      const state = connection.state(device);
      const seen = state.last_seen ? Date.parse(state.last_seen) : connection.lastUpdate(device);
      return { device, state, seen, name: displayName(device), availability: connection.availability(device) };
    });
  }

  update() {
    const all = this.rows();
    const families = [...new Set(all.map((row) => row.device.integration))].sort();
    const chosen = familyChoice.get();
    this.family.replaceChildren(h('option', { value: '' }, 'All families'), ...families.map((name) => h('option', { value: name }, name.toUpperCase())));
    this.family.value = families.includes(chosen) ? chosen : '';
    const text = this.search.value.trim().toLowerCase();
    const rows = all
      .filter((row) => !this.family.value || row.device.integration === this.family.value)
      .filter((row) => !text || [row.name, row.device.id, row.device.alias, row.device.model, row.device.manufacturer, row.device.label]
        .some((field) => (field || '').toLowerCase().includes(text)))
      .sort(sorts[this.sort.value] || sorts.name);
    const ignored = this.connection.info?.integrations?.ble?.ignored_devices;
    this.count.textContent = `${rows.length} of ${all.length} devices` + (typeof ignored === 'number' ? ` · ${ignored} BLE addresses ignored` : '');
    this.list.replaceChildren(...rows.map((row) => this.card(row)));
  }

  card({ device, state, seen, name, availability }) {
    const status = state.status || device.device_status || availability;
    return h('a', { class: 'device', href: `#/device/${encodeURIComponent(device.id)}`, 'data-id': device.id },
      h('div', { class: 'name' }, name),
      h('div', { class: 'meta' }, h('span', {}, device.integration.toUpperCase()), h('span', {}, device.model), device.alias !== device.id ? h('span', {}, device.id) : null),
      h('div', { class: 'figures' },
        h('span', { class: `pill ${availability}`, 'data-availability': availability }, status),
        signal(state.rssi),
        typeof state.battery === 'number' ? h('span', {}, `battery ${state.battery} %`) : null,
        h('span', { class: 'ago', 'data-time': seen || '' }, seen ? ago(seen) : 'not seen yet')));
  }

  tick() {
    for (const element of this.list.querySelectorAll('.ago[data-time]')) {
      const time = Number(element.dataset.time);
      if (time) element.textContent = ago(time);
    }
  }
}
"""#),
        "index.html": WebAsset(
            contentType: "text/html; charset=utf-8",
            body: #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>things2mqtt</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="style.css">
<script type="module" src="app.js"></script>
</head>
<body>
<header class="bar">
  <a class="brand" href="#/devices">things2mqtt</a>
  <span id="link" class="link" title="Not connected" aria-label="Connection"></span>
  <nav id="nav">
    <a href="#/devices" data-page="devices">Devices</a>
    <a href="#/ble" data-page="ble">BLE</a>
    <a href="#/bridge" data-page="bridge">Bridge</a>
    <a href="#/logs" data-page="logs">Logs</a>
  </nav>
  <button id="theme" type="button" title="Theme">Theme</button>
  <button id="logout" type="button" hidden>Log out</button>
</header>
<div id="banner" class="banner" hidden></div>
<main id="view"><p class="muted">Connecting…</p></main>
<form id="login" class="login" hidden>
  <h1>Sign in</h1>
  <p class="muted">This bridge asks for the token set as <code>frontend.auth_token</code>.</p>
  <label>Token <input id="token" name="token" type="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in</button>
  <p id="login-error" class="error" role="alert"></p>
</form>
<div id="toasts" class="toasts" aria-live="polite"></div>
</body>
</html>
"""#),
        "logs.js": WebAsset(
            contentType: "text/javascript; charset=utf-8",
            body: #"""
// Logs: the bridge writes its log to stderr (the journal), not to MQTT, so the page shows what MQTT carries:
// bridge events, live, filterable, and the log level, which the bridge takes through `bridge/request/options`.
import { attempt, h } from './ui.js';

const LEVELS = ['trace', 'debug', 'info', 'notice', 'warning', 'error', 'critical'];
const held = [];
const LIMIT = 500;

export function remember(event) {
  if (event.topic !== 'bridge/event') return;
  held.unshift(event);
  held.length = Math.min(held.length, LIMIT);
}

export class LogsView {
  constructor(connection) { this.connection = connection; }

  mount(root) {
    this.filter = h('input', { type: 'search', placeholder: 'Filter events', 'aria-label': 'Filter', oninput: () => this.render() });
    this.list = h('div', { class: 'events', id: 'log-events' });
    this.level = h('select', { 'aria-label': 'Log level', onchange: () => attempt(() => this.connection.request('options', { options: { log_level: this.level.value } }), `Log level ${this.level.value}`) },
      ...LEVELS.map((level) => h('option', { value: level }, level)));
    const download = h('button', { type: 'button', onclick: () => this.download() }, 'Download');
    root.append(
      h('h1', {}, 'Logs'),
      h('p', { class: 'muted' }, 'The log itself goes to the journal (journalctl -u things2mqtt); here are the bridge\'s events as they happen.'),
      h('div', { class: 'tools' }, this.filter, this.level, download),
      this.list);
    this.update();
  }

  event(event) { this.render(); }

  update() {
    const level = this.connection.info?.log_level;
    if (level && document.activeElement !== this.level) this.level.value = level;
    this.render();
  }

  render() {
    const text = this.filter.value.trim().toLowerCase();
    const shown = held.filter((event) => !text || JSON.stringify(event.payload).toLowerCase().includes(text)).slice(0, 200);
    this.list.replaceChildren(...shown.map(({ payload, at }) => h('div', { class: 'event' },
      h('span', { class: 'muted' }, new Date(at).toLocaleTimeString()), ' ', h('strong', {}, payload?.type || ''), ' ', JSON.stringify(payload?.data ?? payload))));
    if (!shown.length) this.list.append(h('p', { class: 'muted' }, 'No events yet.'));
  }

  download() {
    const blob = new Blob([held.map((event) => JSON.stringify({ at: new Date(event.at).toISOString(), ...event.payload })).join('\n') + '\n'], { type: 'application/x-ndjson' });
    const link = h('a', { href: URL.createObjectURL(blob), download: 'things2mqtt-events.ndjson' });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }
}
"""#),
        "style.css": WebAsset(
            contentType: "text/css; charset=utf-8",
            body: #"""
/* Mobile first: one column at 360 px, wider layouts only add room. Colours follow the chosen theme. */
:root {
  --bg: #f6f7f9; --card: #fff; --text: #1d2330; --muted: #5e6878; --line: #dde1e8;
  --accent: #2563eb; --ok: #15803d; --warn: #b45309; --bad: #b91c1c; --radius: 10px;
  color-scheme: light;
}
:root[data-theme="dark"] {
  --bg: #111418; --card: #1b2027; --text: #e6e9ef; --muted: #9aa4b2; --line: #2c333d;
  --accent: #60a5fa; --ok: #4ade80; --warn: #fbbf24; --bad: #f87171;
  color-scheme: dark;
}
@media (prefers-color-scheme: dark) {
  :root:not([data-theme="light"]) {
    --bg: #111418; --card: #1b2027; --text: #e6e9ef; --muted: #9aa4b2; --line: #2c333d;
    --accent: #60a5fa; --ok: #4ade80; --warn: #fbbf24; --bad: #f87171;
    color-scheme: dark;
  }
}
* { box-sizing: border-box; }
html, body { margin: 0; background: var(--bg); color: var(--text); overflow-x: hidden; }
body { font: 15px/1.45 system-ui, sans-serif; }
a { color: var(--accent); }
button, input, select { font: inherit; color: inherit; }
button { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: .45em .8em; cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button.danger { background: var(--bad); border-color: var(--bad); color: #fff; }
button:disabled { opacity: .5; cursor: default; }
input, select { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: .4em .6em; max-width: 100%; }
input[type="range"] { width: 100%; padding: 0; }
code, pre { font-family: ui-monospace, monospace; font-size: .9em; }
pre { white-space: pre-wrap; word-break: break-word; margin: 0; }
.bar { display: flex; flex-wrap: wrap; align-items: center; gap: .5em; padding: .5em .75em; background: var(--card); border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; text-decoration: none; color: var(--text); }
.bar nav { display: flex; gap: .25em; order: 10; width: 100%; overflow-x: auto; }
.bar nav a { text-decoration: none; padding: .3em .6em; border-radius: 8px; color: var(--muted); }
.bar nav a.active { background: var(--bg); color: var(--text); font-weight: 600; }
.bar #theme { margin-left: auto; }
.link { width: .7em; height: .7em; border-radius: 50%; background: var(--bad); display: inline-block; }
.link.open { background: var(--ok); }
main { padding: .75em; max-width: 1100px; margin: 0 auto; }
main p, main label, main code { overflow-wrap: anywhere; }
h1 { font-size: 1.3em; margin: .2em 0 .6em; overflow-wrap: anywhere; }
h2 { font-size: 1.05em; margin: 0 0 .5em; }
.muted { color: var(--muted); }
.error { color: var(--bad); }
.banner { background: var(--warn); color: #111; padding: .5em .75em; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); padding: .75em; margin-bottom: .75em; min-width: 0; }
.tools { display: flex; flex-wrap: wrap; gap: .5em; margin-bottom: .75em; }
.tools input[type="search"] { flex: 1 1 10em; min-width: 0; }
.list { display: grid; gap: .5em; grid-template-columns: 1fr; }
@media (min-width: 720px) { .list { grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); } .bar nav { order: 0; width: auto; } }
.device { display: block; text-decoration: none; color: inherit; background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); padding: .6em .75em; min-width: 0; }
.device .name { font-weight: 600; overflow-wrap: anywhere; }
.device .meta, .device .figures { display: flex; flex-wrap: wrap; gap: .25em .75em; font-size: .9em; color: var(--muted); }
.device .meta > *, .device .figures > * { min-width: 0; overflow-wrap: anywhere; }
.pill { display: inline-block; padding: 0 .5em; border-radius: 999px; font-size: .85em; border: 1px solid currentColor; }
.pill.online { color: var(--ok); } .pill.offline { color: var(--bad); } .pill.unknown { color: var(--muted); }
.bars { display: inline-flex; align-items: flex-end; gap: 1px; height: .9em; vertical-align: -1px; }
.bars i { width: 3px; background: var(--line); display: block; }
.bars i.on { background: var(--accent); }
.grid2 { display: grid; grid-template-columns: minmax(6em, max-content) 1fr; gap: .3em .75em; }
.grid2 > * { min-width: 0; overflow-wrap: anywhere; }
.control { display: grid; gap: .25em; margin-bottom: .6em; }
.control .row { display: flex; gap: .5em; align-items: center; flex-wrap: wrap; }
.control label { font-weight: 600; }
.field { display: inline-flex; align-items: center; gap: .35em; }
fieldset { border: 1px solid var(--line); border-radius: var(--radius); margin: 0 0 .6em; padding: .5em .75em; min-width: 0; }
.stop { width: 100%; font-size: 1.3em; padding: .7em; }
.switch { min-width: 5em; }
.switch[aria-pressed="true"] { background: var(--ok); border-color: var(--ok); color: #fff; }
.login { max-width: 22em; margin: 2em auto; padding: 1em; background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); display: grid; gap: .6em; }
.login[hidden] { display: none; }
.toasts { position: fixed; bottom: .75em; left: .75em; right: .75em; display: grid; gap: .4em; pointer-events: none; }
.toast { background: var(--text); color: var(--bg); padding: .5em .75em; border-radius: 8px; }
.toast.bad { background: var(--bad); color: #fff; }
.events { display: grid; gap: .3em; }
.event { font-size: .9em; border-bottom: 1px solid var(--line); padding-bottom: .3em; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; }
td, th { text-align: left; padding: .25em .4em; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: anywhere; }
"""#),
        "ui.js": WebAsset(
            contentType: "text/javascript; charset=utf-8",
            body: #"""
// Small functions the views share: building elements, times, signal, notices.

/// Builds an element: h('a', { href: '#/x', class: 'y' }, 'text', child…). `on*` attributes become listeners.
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') element.addEventListener(key.slice(2), value);
    else if (key in element && typeof value !== 'string') element[key] = value;
    else element.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/// "12 s ago", "3 min ago"… for a time in milliseconds.
export function ago(time, now = Date.now()) {
  if (!time) return '—';
  const seconds = Math.max(0, Math.round((now - time) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86400)} d ago`;
}

/// Four bars for a BLE signal in dBm, with the number beside them.
export function signal(rssi) {
  if (typeof rssi !== 'number') return null;
  const level = rssi >= -60 ? 4 : rssi >= -70 ? 3 : rssi >= -80 ? 2 : rssi >= -90 ? 1 : 0;
  const bars = h('span', { class: 'bars', title: `${rssi} dBm`, 'aria-label': `signal ${level} of 4` });
  for (let index = 1; index <= 4; index++) bars.append(h('i', { class: index <= level ? 'on' : '', style: `height:${index * 25}%` }));
  return h('span', {}, bars, ` ${rssi} dBm`);
}

/// A short notice at the bottom of the page.
export function toast(text, bad = false) {
  const box = document.getElementById('toasts');
  const item = h('div', { class: bad ? 'toast bad' : 'toast', role: bad ? 'alert' : 'status' }, text);
  box.append(item);
  setTimeout(() => item.remove(), bad ? 8000 : 3000);
}

/// Runs a request and reports its failure on the page rather than in the console.
export async function attempt(action, success) {
  try {
    const result = await action();
    if (success) toast(typeof success === 'function' ? success(result) : success);
    return result;
  } catch (error) {
    toast(error.message || String(error), true);
    return undefined;
  }
}

/// Reads and writes a choice kept in the browser.
export function choice(key, fallback) {
  return {
    get: () => localStorage.getItem(`t2m.${key}`) ?? fallback,
    set: (value) => localStorage.setItem(`t2m.${key}`, value),
  };
}

export function displayName(device) {
  return device.alias !== device.id ? device.alias : device.label || device.id;
}
"""#),
    ]
}
