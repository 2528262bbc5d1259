// Logs: the bridge's log lines, live from `bridge/logging`, with what the daemon's ring held before the page
// opened (its `logs` file); filter by level and text, download, and the log level, which the bridge takes through
// `bridge/request/options`. The bridge's events are kept below them.
import { attempt, choice, h } from './ui.js';

const LEVELS = ['trace', 'debug', 'info', 'notice', 'warning', 'error', 'critical'];
const LIMIT = 1000;
const SHOWN = 300;
const lines = [];
let received = 0;
const events = [];
const EVENT_LIMIT = 500;
const shownLevel = choice('logs.level', 'trace');

/// Keeps a live `bridge/logging` line, as the daemon's ring does, the newest `LIMIT`.
export function keep(line) {
  lines.push(line);
  received++;
  if (lines.length > LIMIT) lines.splice(0, lines.length - LIMIT);
}

export function remember(event) {
  if (event.topic !== 'bridge/event') return;
  events.unshift(event);
  events.length = Math.min(events.length, EVENT_LIMIT);
}

const key = (line) => `${line.level}\u0000${line.namespace}\u0000${line.message}`;

function text(line) {
  return `${new Date(line.time).toISOString()} ${String(line.level).toUpperCase()} [${line.namespace ?? ''}] ${line.message}`;
}

export class LogsView {
  constructor(connection) { this.connection = connection; }

  mount(root) {
    this.filter = h('input', { type: 'search', id: 'logs-filter', placeholder: 'Filter lines', 'aria-label': 'Filter', oninput: () => this.schedule() });
    this.shown = h('select', { id: 'logs-show', 'aria-label': 'Show from level', onchange: () => { shownLevel.set(this.shown.value); this.schedule(); } },
      ...LEVELS.slice(0, -1).map((level) => h('option', { value: level }, level === 'trace' ? 'all levels' : `${level} and up`)));
    this.shown.value = shownLevel.get();
    this.list = h('div', { class: 'loglines', id: 'log-lines', role: 'log' });
    this.level = h('select', { id: 'logs-level', 'aria-label': 'Log level', onchange: () => attempt(() => this.connection.request('options', { options: { log_level: this.level.value } }), `Log level ${this.level.value}`) },
      ...LEVELS.slice(0, -1).map((level) => h('option', { value: level }, level)));
    this.events = h('div', { class: 'events', id: 'log-events' });
    this.count = h('span', { class: 'muted', id: 'logs-count' });
    root.append(
      h('h1', {}, 'Logs'),
      h('div', { class: 'tools' }, this.filter, this.shown, h('button', { type: 'button', id: 'logs-download', onclick: () => this.download() }, 'Download')),
      h('div', { class: 'tools' }, h('label', { class: 'field' }, 'Log level', this.level), this.count),
      this.list,
      h('details', { class: 'card' }, h('summary', {}, 'Bridge events'), this.events));
    this.update();
    this.load();
  }

  /// What the daemon held before the page opened; lines that came live meanwhile stay after them.
  async load() {
    const before = received;
    const fetched = await attempt(async () => {
      const response = await this.connection.fetch('logs');
      if (!response.ok) throw new Error(`Log lines not loaded: ${response.status} ${response.statusText}`);
      return response.json();
    });
    if (!Array.isArray(fetched)) return;
    const tail = new Set(fetched.slice(-50).map(key));
    const meanwhile = lines.slice(lines.length - Math.min(lines.length, received - before)).filter((line) => !tail.has(key(line)));
    lines.splice(0, lines.length, ...fetched.concat(meanwhile).slice(-LIMIT));
    this.schedule();
  }

  log() { this.schedule(); }
  event() { this.schedule(); }

  update() {
    const level = this.connection.info?.log_level;
    if (level && document.activeElement !== this.level) this.level.value = level;
    this.schedule();
  }

  /// One redraw per frame, however many lines a storm brings.
  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => { this.scheduled = false; this.render(); });
  }

  visible() {
    const floor = Math.max(0, LEVELS.indexOf(this.shown.value));
    const words = this.filter.value.trim().toLowerCase();
    return lines.filter((line) => LEVELS.indexOf(line.level) >= floor
      && (!words || `${line.namespace} ${line.message}`.toLowerCase().includes(words)));
  }

  render() {
    const shown = this.visible();
    this.count.textContent = `${shown.length} of ${lines.length} lines`;
    this.list.replaceChildren(...shown.slice(-SHOWN).reverse().map((line) => h('div', { class: `logline ${line.level}`, 'data-level': line.level },
      h('span', { class: 'muted' }, new Date(line.time).toLocaleTimeString()), ' ',
      h('strong', {}, line.level), ' ', h('span', { class: 'muted' }, line.namespace ?? ''), ' ', line.message)));
    if (!shown.length) this.list.append(h('p', { class: 'muted' }, lines.length ? 'No line matches.' : 'No log lines yet.'));
    this.events.replaceChildren(...events.slice(0, 100).map(({ payload, at }) => h('div', { class: 'event' },
      h('span', { class: 'muted' }, new Date(at).toLocaleTimeString()), ' ', h('strong', {}, payload?.type || ''), ' ', JSON.stringify(payload?.data ?? payload))));
    if (!events.length) this.events.append(h('p', { class: 'muted' }, 'No events yet.'));
  }

  /// Everything the daemon holds, as the journal writes it; the page's own lines when the daemon gives none.
  async download() {
    let held = lines;
    try {
      const response = await this.connection.fetch('logs');
      if (response.ok) held = await response.json();
    } catch { /* the page's lines will do */ }
    const blob = new Blob([held.map(text).join('\n') + '\n'], { type: 'text/plain' });
    const link = h('a', { href: URL.createObjectURL(blob), download: 'things2mqtt.log' });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }
}
