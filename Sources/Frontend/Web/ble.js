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
