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
