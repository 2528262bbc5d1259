'''BlueZ stand-in for things2mqtt's tests and demo: python-dbusmock's bluez5 template with the
behaviour the bridge relies on fixed and extended (real discovery errors, correct advert types,
Connect that stores Connected and then ServicesResolved, failure injection, adverts with manufacturer
and service data, GATT objects, devices with the standard Battery, Heart Rate, Environmental Sensing
and Device Information services, and Nova flashes that acknowledge their frames).
A connected device sends no adverts, as a real connectable peripheral stops advertising once it has a
central: the Advertise* methods send nothing for it (no RSSI or data PropertiesChanged) until it disconnects,
unless SetAdvertisesWhileConnected says it is one that goes on advertising.

Run with Debian's interpreter: /usr/bin/python3 -m dbusmock --template Tests/bluez/bluez_things.py
'''

import random
import re
import time

import dbus
from gi.repository import GLib

from dbusmock import mockobject
from dbusmock.templates import bluez5 as _base
from dbusmock.templates.bluez5 import *  # noqa: F401,F403  (the base template's methods and constants)

BUS_NAME = 'org.bluez'
MAIN_OBJ = '/'
SYSTEM_BUS = True
IS_OBJECT_MANAGER = True

GATT_SERVICE_IFACE = 'org.bluez.GattService1'
GATT_CHARACTERISTIC_IFACE = 'org.bluez.GattCharacteristic1'
NOVA_SERVICE = '0000fff0-0000-1000-8000-00805f9b34fb'
NOVA_REQUEST = '0000fff3-0000-1000-8000-00805f9b34fb'
NOVA_RESPONSE = '0000fff4-0000-1000-8000-00805f9b34fb'
NOVA_FRAME = re.compile(rb'^\(([0-9A-Fa-f]{2}):')


def _uuid16(short):
    return f'0000{short:04x}-0000-1000-8000-00805f9b34fb'


def _standard_profiles(device):
    '''The standard services a device can have, by name: (service UUID, handle, advertised,
    [(characteristic UUID, handle, flags, value)]). Handles are fixed, so paths are predictable.'''
    alias = str(device.props[DEVICE_IFACE]['Alias'])
    serial = str(device.props[DEVICE_IFACE]['Address']).replace(':', '')
    return {
        'battery': (0x180F, 0x0020, True, [(0x2A19, 0x0021, ['read', 'notify'], bytes([90]))]),
        # Heart Rate Measurement only notifies; its value stays empty until the first notification.
        'heart_rate': (0x180D, 0x0030, True, [
            (0x2A37, 0x0031, ['notify'], b''), (0x2A38, 0x0033, ['read'], bytes([1])),
            (0x2A39, 0x0035, ['write'], b''),
        ]),
        # 21.50 °C and 50.60 %, little-endian hundredths.
        'environmental_sensing': (0x181A, 0x0040, True, [
            (0x2A6E, 0x0041, ['read', 'notify'], (2150).to_bytes(2, 'little', signed=True)),
            (0x2A6F, 0x0043, ['read', 'notify'], (5060).to_bytes(2, 'little')),
        ]),
        'device_information': (0x180A, 0x0050, False, [
            (0x2A29, 0x0051, ['read'], b'things2mqtt'), (0x2A24, 0x0053, ['read'], alias.encode()),
            (0x2A26, 0x0055, ['read'], b'1.2.3'), (0x2A27, 0x0057, ['read'], b'rev-B'),
            (0x2A28, 0x0059, ['read'], b'4.5.6'), (0x2A25, 0x005b, ['read'], serial.encode() + b'\x00'),
        ]),
    }


def load(mock, parameters):
    _base.load(mock, parameters)


def _changed(obj, iface, props):
    '''Stores properties and announces them in one PropertiesChanged, as BlueZ does.'''
    obj.props[iface].update(props)
    obj.EmitSignal(dbus.PROPERTIES_IFACE, 'PropertiesChanged', 'sa{sv}as', [iface, props, []])


def _advertising(device):
    '''Whether the device advertises now: not while connected (it has its central), unless it is one of the
    peripherals that go on advertising with a central (`SetAdvertisesWhileConnected`).'''
    return not getattr(device, 'connected', False) or getattr(device, 'advertises_connected', False)


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sb', out_signature='')
def SetAdvertisesWhileConnected(self, device_path, enabled):
    '''Some peripherals go on advertising while connected: this one does, so its RSSI keeps changing.'''
    _object(device_path).advertises_connected = bool(enabled)


def _error(name, message):
    return dbus.exceptions.DBusException(message, name='org.bluez.Error.' + name)


def _object(path):
    if path not in mockobject.objects:
        raise dbus.exceptions.DBusException(f'no object {path}', name='org.bluez.Mock.NoSuchObject')
    return mockobject.objects[path]


def _added(path, interfaces):
    mockobject.objects['/'].EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesAdded', 'oa{sa{sv}}',
                                       [dbus.ObjectPath(path), interfaces])


@dbus.service.method(ADAPTER_IFACE, in_signature='a{sv}', out_signature='')
def SetDiscoveryFilter(adapter, discovery_filter):
    # Kept beside the properties: BlueZ does not expose the filter as one.
    adapter.discovery_filter = discovery_filter


@dbus.service.method(ADAPTER_IFACE, in_signature='', out_signature='')
def StartDiscovery(adapter):
    if not adapter.props[ADAPTER_IFACE]['Powered']:
        raise _error('NotReady', 'Resource Not Ready')
    if adapter.props[ADAPTER_IFACE]['Discovering']:
        raise _error('InProgress', 'Operation already in progress')
    _changed(adapter, ADAPTER_IFACE, {'Discovering': dbus.Boolean(True, variant_level=1)})


@dbus.service.method(ADAPTER_IFACE, in_signature='', out_signature='')
def StopDiscovery(adapter):
    if not adapter.props[ADAPTER_IFACE]['Discovering']:
        raise _error('Failed', 'No discovery started')
    _changed(adapter, ADAPTER_IFACE, {'Discovering': dbus.Boolean(False, variant_level=1)})


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='ss', out_signature='s')
def AddAdapter(self, device_name, system_name):
    path = _base.AddAdapter(self, device_name, system_name)
    adapter = mockobject.objects[path]
    adapter.props[ADAPTER_IFACE]['Roles'] = dbus.Array(['central', 'peripheral'], signature='s', variant_level=1)
    adapter.discovery_filter = None
    adapter.AddMethods(ADAPTER_IFACE, [
        ('StartDiscovery', '', '', StartDiscovery),
        ('StopDiscovery', '', '', StopDiscovery),
        ('SetDiscoveryFilter', 'a{sv}', '', SetDiscoveryFilter),
    ])
    return path


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sb', out_signature='')
def SetPowered(self, adapter_path, powered):
    '''Powers an adapter on or off; off also ends discovery and every connection, as the kernel does.'''
    adapter = _object(adapter_path)
    changes = {'Powered': dbus.Boolean(powered, variant_level=1)}
    if not powered:
        changes['Discovering'] = dbus.Boolean(False, variant_level=1)
        for path, obj in list(mockobject.objects.items()):
            if path.startswith(adapter_path + '/dev_') and DEVICE_IFACE in obj.props and obj.props[DEVICE_IFACE]['Connected']:
                _set_connected(obj, False)
    _changed(adapter, ADAPTER_IFACE, changes)


def _set_connected(device, connected):
    device.connected = connected
    device.connection_changes = getattr(device, 'connection_changes', []) + [(time.monotonic(), bool(connected))]
    _changed(device, DEVICE_IFACE, {'Connected': dbus.Boolean(connected, variant_level=1)})
    if connected and getattr(device, 'nova', False):
        _add_nova_gatt(device)
    if connected:
        _add_standard_gatt(device)
    # BlueZ reports ServicesResolved in its own signal, after Connected.
    _changed(device, DEVICE_IFACE, {'ServicesResolved': dbus.Boolean(connected, variant_level=1)})
    if not connected:
        # Notifications end with the connection.
        for path, obj in list(mockobject.objects.items()):
            if path.startswith(device.path + '/') and GATT_CHARACTERISTIC_IFACE in obj.props \
                    and obj.props[GATT_CHARACTERISTIC_IFACE]['Notifying']:
                _changed(obj, GATT_CHARACTERISTIC_IFACE, {'Notifying': dbus.Boolean(False, variant_level=1)})


@dbus.service.method(DEVICE_IFACE, in_signature='', out_signature='')
def Connect(device):
    device.connect_attempts.append(time.monotonic())
    if device.fail_connects:
        raise _error('Failed', device.fail_connects.pop(0))
    if device.connected:
        return
    _set_connected(device, True)


@dbus.service.method(DEVICE_IFACE, in_signature='', out_signature='')
def Disconnect(device):
    # A slow link layer: the whole stand-in waits, as a busy bluetoothd answers late.
    if getattr(device, 'disconnect_delay', 0.0) > 0:
        time.sleep(device.disconnect_delay)
    if device.connected:
        _set_connected(device, False)


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sss', out_signature='s')
def AddDevice(self, adapter_device_name, device_address, alias):
    path = _base.AddDevice(self, adapter_device_name, device_address, alias)
    device = mockobject.objects[path]
    # The base template gives these the wrong D-Bus types; BlueZ uses a{qv}, a{sv}, ay and a{yv}.
    device.props[DEVICE_IFACE].update({
        'ManufacturerData': dbus.Dictionary({}, signature='qv', variant_level=1),
        'ServiceData': dbus.Dictionary({}, signature='sv', variant_level=1),
        'AdvertisingFlags': dbus.ByteArray(b'', variant_level=1),
        'AdvertisingData': dbus.Dictionary({}, signature='yv', variant_level=1),
    })
    device.fail_connects = []
    device.connect_attempts = []
    device.nova = False
    device.nova_acks = True
    device.nova_ack_delay = 0.0
    device.nova_ack_times = []
    device.profiles = []
    device.AddMethods(DEVICE_IFACE, [('Connect', '', '', Connect), ('Disconnect', '', '', Disconnect)])
    return path


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='ss', out_signature='s')
def AddNova(self, adapter_device_name, device_address):
    '''A Nova flash: name "Nova", service FFF0; once connected it has FFF3 (requests) and FFF4 (acks).'''
    path = AddDevice(self, adapter_device_name, device_address, 'Nova')
    device = mockobject.objects[path]
    device.nova = True
    _changed(device, DEVICE_IFACE, {'UUIDs': dbus.Array([NOVA_SERVICE], signature='s', variant_level=1)})
    return path


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sb', out_signature='')
def SetNovaAcks(self, device_path, enabled):
    '''Whether the Nova at `device_path` acknowledges frames (off: the bridge's ack timeout runs out).'''
    _object(device_path).nova_acks = enabled


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sd', out_signature='')
def SetNovaAckDelay(self, device_path, seconds):
    '''How long the Nova at `device_path` takes to acknowledge a frame (a flash far away or busy).'''
    _object(device_path).nova_ack_delay = float(seconds)


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='s', out_signature='ad')
def GetNovaAckTimes(self, device_path):
    '''When the Nova at `device_path` sent each ack that reached the client, in seconds of the host's monotonic
    clock (as GetConnectionSpans).'''
    return dbus.Array(_object(device_path).nova_ack_times, signature='d')


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sd', out_signature='')
def SetDisconnectDelay(self, device_path, seconds):
    '''How long Disconnect on the device at `device_path` takes before the connection is down.'''
    _object(device_path).disconnect_delay = float(seconds)


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='s', out_signature='')
def LoseConnection(self, device_path):
    '''The link drops from the device's side (it went out of range): Connected goes false, as BlueZ says it.'''
    device = _object(device_path)
    if device.connected:
        _set_connected(device, False)


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sus', out_signature='')
def FailNextConnects(self, device_path, count, message):
    '''The next `count` Connect calls fail with org.bluez.Error.Failed and `message`.'''
    _object(device_path).fail_connects.extend([message] * count)


def _byte_values(data, key):
    '''A dictionary as BlueZ sends advert data: each value a variant holding `ay`, whatever the caller sent.'''
    return {key(k): dbus.ByteArray(bytes(v), variant_level=1) for k, v in data.items()}


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sna{qv}a{sv}', out_signature='')
def Advertise(self, device_path, rssi, manufacturer_data, service_data):
    '''One advert: RSSI and, when given, manufacturer data (a{qv}, company id to ay) and service data
    (a{sv}, 128-bit UUID text to ay), in one PropertiesChanged on org.bluez.Device1, as BlueZ does.'''
    changes = {'RSSI': dbus.Int16(rssi, variant_level=1)}
    if manufacturer_data:
        changes['ManufacturerData'] = dbus.Dictionary(
            _byte_values(manufacturer_data, dbus.UInt16), signature='qv', variant_level=1)
    if service_data:
        changes['ServiceData'] = dbus.Dictionary(
            _byte_values(service_data, lambda uuid: dbus.String(str(uuid).lower())), signature='sv', variant_level=1)
    device = _object(device_path)
    if _advertising(device):
        _changed(device, DEVICE_IFACE, changes)


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sui', out_signature='')
def AdvertiseBurst(self, device_path, count, rssi):
    '''`count` RSSI adverts in a row (RSSI cycling over rssi-9..rssi), the last one exactly `rssi`.'''
    device = _object(device_path)
    if not _advertising(device):
        return
    for index in range(count):
        value = rssi - ((count - 1 - index) % 10)
        _changed(device, DEVICE_IFACE, {'RSSI': dbus.Int16(value, variant_level=1)})


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='suu', out_signature='as')
def AddSensors(self, adapter_device_name, first, count):
    '''`count` devices named "Sensor N" at A4:C1:38 addresses numbered from `first`; returns their paths.'''
    paths = []
    for number in range(first, first + count):
        address = 'A4:C1:38:%02X:%02X:%02X' % ((number >> 16) & 0xFF, (number >> 8) & 0xFF, number & 0xFF)
        paths.append(AddDevice(self, adapter_device_name, address, 'Sensor %d' % number))
    return dbus.Array(paths, signature='s')


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='asiu', out_signature='u')
def AdvertiseAll(self, device_paths, rssi, jitter):
    '''One RSSI advert for each device, at `rssi` plus or minus up to `jitter` dB; returns how many were sent.'''
    import random
    sent = 0
    for path in device_paths:
        value = rssi + random.randint(-int(jitter), int(jitter))
        device = _object(path)
        if _advertising(device):
            _changed(device, DEVICE_IFACE, {'RSSI': dbus.Int16(value, variant_level=1)})
            sent += 1
    return dbus.UInt32(sent)


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sas', out_signature='')
def SetServices(self, device_path, uuids):
    '''The service UUIDs the device advertises.'''
    _changed(_object(device_path), DEVICE_IFACE, {'UUIDs': dbus.Array(uuids, signature='s', variant_level=1)})


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='ssq', out_signature='s')
def AddGattService(self, device_path, uuid, handle):
    path = f'{device_path}/service{handle:04x}'
    props = {
        'UUID': dbus.String(uuid, variant_level=1), 'Primary': dbus.Boolean(True, variant_level=1),
        'Device': dbus.ObjectPath(device_path, variant_level=1),
    }
    self.AddObject(path, GATT_SERVICE_IFACE, props, [])
    _added(path, {GATT_SERVICE_IFACE: props})
    return path


@dbus.service.method(GATT_CHARACTERISTIC_IFACE, in_signature='a{sv}', out_signature='ay')
def ReadValue(characteristic, options):
    device = mockobject.objects.get(characteristic.path.split('/service')[0])
    if device is not None and not getattr(device, 'connected', True):
        raise _error('Failed', 'Not connected')
    if 'read' not in characteristic.props[GATT_CHARACTERISTIC_IFACE]['Flags']:
        raise _error('NotPermitted', 'Read not permitted')
    value = dbus.ByteArray(bytes(characteristic.props[GATT_CHARACTERISTIC_IFACE]['Value']))
    # BlueZ updates Value after a read and announces it.
    _changed(characteristic, GATT_CHARACTERISTIC_IFACE, {'Value': dbus.ByteArray(bytes(value), variant_level=1)})
    return value


@dbus.service.method(GATT_CHARACTERISTIC_IFACE, in_signature='aya{sv}', out_signature='')
def WriteValue(characteristic, value, options):
    kind = str(options.get('type', 'request'))
    characteristic.writes.append((bytes(value), kind))
    characteristic.write_times = getattr(characteristic, 'write_times', []) + [time.monotonic()]
    nova = getattr(characteristic, 'nova_device', None)
    response = mockobject.objects[characteristic.nova_response] if nova is not None else None
    # Like a real flash seen through BlueZ, acks reach the client only while it has notifications on.
    if nova is not None and nova.nova_acks and response.props[GATT_CHARACTERISTIC_IFACE]['Notifying']:
        frame = NOVA_FRAME.match(bytes(value))
        if frame:
            ack = b'(' + frame.group(1).upper() + b':A)'

            def send_ack():
                # A link dropped meanwhile carries no ack: the client never sees it.
                if getattr(nova, 'connected', False) and response.props[GATT_CHARACTERISTIC_IFACE]['Notifying']:
                    nova.nova_ack_times.append(time.monotonic())
                    _changed(response, GATT_CHARACTERISTIC_IFACE, {'Value': dbus.ByteArray(ack, variant_level=1)})
                return False

            if nova.nova_ack_delay > 0:
                GLib.timeout_add(int(nova.nova_ack_delay * 1000), send_ack)
            else:
                send_ack()


@dbus.service.method(GATT_CHARACTERISTIC_IFACE, in_signature='', out_signature='')
def StartNotify(characteristic):
    characteristic.notify_starts = getattr(characteristic, 'notify_starts', 0) + 1
    _changed(characteristic, GATT_CHARACTERISTIC_IFACE, {'Notifying': dbus.Boolean(True, variant_level=1)})


@dbus.service.method(GATT_CHARACTERISTIC_IFACE, in_signature='', out_signature='')
def StopNotify(characteristic):
    _changed(characteristic, GATT_CHARACTERISTIC_IFACE, {'Notifying': dbus.Boolean(False, variant_level=1)})


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='ssqasay', out_signature='s')
def AddGattCharacteristic(self, service_path, uuid, handle, flags, value):
    path = f'{service_path}/char{handle:04x}'
    props = {
        'UUID': dbus.String(uuid, variant_level=1), 'Service': dbus.ObjectPath(service_path, variant_level=1),
        'Flags': dbus.Array(flags, signature='s', variant_level=1),
        'Value': dbus.ByteArray(bytes(value), variant_level=1), 'Notifying': dbus.Boolean(False, variant_level=1),
    }
    self.AddObject(path, GATT_CHARACTERISTIC_IFACE, props, [
        ('ReadValue', 'a{sv}', 'ay', ReadValue), ('WriteValue', 'aya{sv}', '', WriteValue),
        ('StartNotify', '', '', StartNotify), ('StopNotify', '', '', StopNotify),
    ])
    mockobject.objects[path].writes = []
    _added(path, {GATT_CHARACTERISTIC_IFACE: props})
    return path


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='say', out_signature='')
def Notify(self, characteristic_path, value):
    '''A notification: the characteristic's Value changes.'''
    _changed(_object(characteristic_path), GATT_CHARACTERISTIC_IFACE, {'Value': dbus.ByteArray(bytes(value), variant_level=1)})


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='s', out_signature='a(ays)')
def GetWrites(self, characteristic_path):
    '''What was written to a characteristic, with the write type BlueZ was given.'''
    return dbus.Array([dbus.Struct((dbus.ByteArray(v), k)) for v, k in _object(characteristic_path).writes],
                      signature='(ays)')


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='s', out_signature='ad')
def GetWriteTimes(self, characteristic_path):
    '''When each write to a characteristic arrived, in seconds of the stand-in's monotonic clock.'''
    return dbus.Array(getattr(_object(characteristic_path), 'write_times', []), signature='d')


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='sssas', out_signature='s')
def AddStandardDevice(self, adapter_device_name, device_address, alias, profiles):
    '''A device with standard services (`battery`, `heart_rate`, `environmental_sensing`,
    `device_information`): it advertises their UUIDs (not Device Information's), and once connected it
    has their GATT objects with readable values (see _standard_profiles).'''
    path = AddDevice(self, adapter_device_name, device_address, alias)
    device = mockobject.objects[path]
    known = _standard_profiles(device)
    unknown = [name for name in profiles if name not in known]
    if unknown:
        raise dbus.exceptions.DBusException(f'unknown profiles {unknown}; known: {sorted(known)}',
                                            name='org.bluez.Mock.UnknownProfile')
    device.profiles = [str(name) for name in profiles]
    advertised = [_uuid16(known[name][0]) for name in device.profiles if known[name][2]]
    _changed(device, DEVICE_IFACE, {'UUIDs': dbus.Array(advertised, signature='s', variant_level=1)})
    return path


def _add_standard_gatt(device):
    if getattr(device, 'standard_gatt', False) or not device.profiles:
        return
    device.standard_gatt = True
    main = mockobject.objects['/']
    profiles = _standard_profiles(device)
    for name in device.profiles:
        service_uuid, handle, _, characteristics = profiles[name]
        service = AddGattService(main, device.path, _uuid16(service_uuid), handle)
        for uuid, char_handle, flags, value in characteristics:
            AddGattCharacteristic(main, service, _uuid16(uuid), char_handle, flags, value)


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='ss', out_signature='s')
def CharacteristicPath(self, device_path, uuid):
    '''The path of the device's characteristic with this UUID (16-bit like `2a37`, or 128-bit).'''
    wanted = _uuid16(int(uuid, 16)) if len(uuid) <= 4 else uuid.lower()
    for path, obj in sorted(mockobject.objects.items()):
        if path.startswith(device_path + '/') and GATT_CHARACTERISTIC_IFACE in obj.props \
                and str(obj.props[GATT_CHARACTERISTIC_IFACE]['UUID']) == wanted:
            return path
    raise dbus.exceptions.DBusException(f'{device_path} has no characteristic {uuid}', name='org.bluez.Mock.NoSuchObject')


def _add_nova_gatt(device):
    if getattr(device, 'nova_gatt', False):
        return
    device.nova_gatt = True
    main = mockobject.objects['/']
    service = AddGattService(main, device.path, NOVA_SERVICE, 0x0010)
    request = AddGattCharacteristic(main, service, NOVA_REQUEST, 0x0011, ['write'], b'')
    response = AddGattCharacteristic(main, service, NOVA_RESPONSE, 0x0013, ['notify'], b'')
    mockobject.objects[request].nova_device = device
    mockobject.objects[request].nova_response = response


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='s', out_signature='ad')
def GetConnectAttempts(self, device_path):
    '''When each Connect call on the device arrived, in seconds of the stand-in's monotonic clock.'''
    return dbus.Array(_object(device_path).connect_attempts, signature='d')


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='s', out_signature='ad')
def GetConnectionSpans(self, device_path):
    '''Each time the device was connected, as start and end in seconds of the host's monotonic clock (shared by
    every stand-in on the machine), flattened; a connection still up ends now.'''
    spans = []
    start = None
    for at, connected in getattr(_object(device_path), 'connection_changes', []):
        if connected and start is None:
            start = at
        elif not connected and start is not None:
            spans += [start, at]
            start = None
    if start is not None:
        spans += [start, time.monotonic()]
    return dbus.Array(spans, signature='d')


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='suns', out_signature='as')
def AddRandomDevices(self, adapter_device_name, count, rssi, alias):
    '''`count` devices with random resolvable private addresses (as phones rotating their address),
    each found by BlueZ and then heard once at `rssi`; returns their paths.'''
    paths = []
    for _ in range(count):
        octets = [random.randrange(256) for _ in range(6)]
        octets[0] = (octets[0] & 0x3F) | 0x40  # resolvable private: the two top bits are 01
        address = ':'.join(f'{octet:02X}' for octet in octets)
        path = AddDevice(self, adapter_device_name, address, alias)
        device = mockobject.objects[path]
        _changed(device, DEVICE_IFACE, {
            'AddressType': dbus.String('random', variant_level=1), 'RSSI': dbus.Int16(rssi, variant_level=1)})
        paths.append(path)
    return dbus.Array(paths, signature='s')


BTHOME_SERVICE = '0000fcd2-0000-1000-8000-00805f9b34fb'


def _bthome(packet, centidegrees):
    '''A BTHome v2 advert: packet id and a temperature in 0.01 °C.'''
    raw = centidegrees & 0xFFFF
    return dbus.ByteArray(bytes([0x40, 0x00, packet & 0xFF, 0x02, raw & 0xFF, raw >> 8]), variant_level=1)


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='su', out_signature='')
def AddBTHomeSensors(self, adapter_device_name, count):
    '''`count` BTHome thermometers (addresses 02:B7:00:00:hh:ll), each found by BlueZ and heard once.'''
    for index in range(count):
        address = '02:B7:00:00:%02X:%02X' % (index // 256, index % 256)
        path = AddDevice(self, adapter_device_name, address, 'BTHome %d' % index)
        data = dbus.Dictionary({BTHOME_SERVICE: _bthome(1, 2000 + index)}, signature='sv', variant_level=1)
        _changed(mockobject.objects[path], DEVICE_IFACE, {'RSSI': dbus.Int16(-70, variant_level=1), 'ServiceData': data})


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='as', out_signature='')
def ExpireDevices(self, device_paths):
    '''BlueZ forgetting devices it has not heard for its temporary-device timeout: each object goes, with
    InterfacesRemoved.'''
    manager = mockobject.objects['/']
    for path in device_paths:
        interfaces = list(_object(path).props.keys())
        self.RemoveObject(path)
        manager.EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesRemoved', 'oas', [dbus.ObjectPath(path), interfaces])


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='s', out_signature='u')
def GetNotifyStarts(self, characteristic_path):
    '''How many times StartNotify was called on the characteristic.'''
    return dbus.UInt32(getattr(_object(characteristic_path), 'notify_starts', 0))


@dbus.service.method(BLUEZ_MOCK_IFACE, in_signature='snsaay', out_signature='')
def AdvertiseServiceDataSeries(self, device_path, rssi, uuid, payloads):
    '''Adverts in a row from one device, one per payload under the service data UUID (16-bit like `fcd2`, or
    128-bit), as a sender repeating itself within milliseconds.'''
    device = _object(device_path)
    key = _uuid16(int(uuid, 16)) if len(uuid) <= 4 else uuid.lower()
    if not _advertising(device):
        return
    for payload in payloads:
        data = dbus.Dictionary({key: dbus.ByteArray(bytes(payload), variant_level=1)}, signature='sv', variant_level=1)
        _changed(device, DEVICE_IFACE, {'RSSI': dbus.Int16(rssi, variant_level=1), 'ServiceData': data})
