import BLEFormats
import BLEModels
public import BridgeConfig
import BridgeCore
import Logging
import Support

/// Bindkeys: the config's, and those `ble/bindkey` sets while the bridge runs.
extension BLEDriver {
    /// The key for a device's adverts: one set by `ble/bindkey` since the start, else the config's.
    func bindkey(for address: BluetoothAddress) -> BindKey? {
        if let runtime = runtimeKeys[address] { return runtime }
        return settings.bindkeys[address]
    }

    /// `ble/bindkey` `{"device": id or alias, "key": "<32 hex digits>"}` (`"address"` instead of `"device"` for a
    /// device not seen yet) sets a device's key over the config's and keeps it in the alias file; `"key": null`
    /// goes back to the config's. The device's key problems are reported afresh, and the key never appears in
    /// the answer or the log.
    func setBindkey(_ payload: [String: JSONValue]) throws(CommandError) -> JSONValue {
        let address: BluetoothAddress
        if let text = payload["device"]?.stringValue {
            guard let id = DeviceID(text), let entry = tracked.values.first(where: { $0.id == id }) else {
                throw CommandError("no BLE device \(text) has been seen; give its \"address\"")
            }
            address = entry.address
        } else if let text = payload["address"]?.stringValue {
            do throws(BluetoothAddressError) { address = try BluetoothAddress(text) } catch {
                throw CommandError(error.description)
            }
        } else {
            throw CommandError("ble/bindkey needs \"device\" (id or alias) or \"address\", and \"key\"")
        }
        switch payload["key"] {
        case .null?:
            runtimeKeys[address] = nil
        case .string(let text)?:
            do throws(BindKeyError) { runtimeKeys[address] = try BindKey(hex: text) } catch {
                throw CommandError(error.description)
            }
        default:
            throw CommandError("ble/bindkey needs \"key\": 32 hex digits (24 for MiBeacon v2/v3), or null")
        }
        forgetKeyState(of: [address])
        saveKeys()
        logger.info("Bindkey set", metadata: ["address": "\(address)", "cleared": "\(payload["key"] == .null)"])
        return ["address": .string(address.description), "key": payload["key"] == .null ? .null : "***"]
    }

    /// Writes the keys set at run time to the alias file, as hex by address.
    private func saveKeys() {
        guard !runtimeKeys.isEmpty else { return memory.save(nil) }
        let keys = runtimeKeys.map { ($0.key.description, JSONValue.string($0.value.hex)) }
        memory.save(["bindkeys": .object(Dictionary(uniqueKeysWithValues: keys))])
    }

    /// The keys a previous run saved; entries that no longer parse are skipped with a warning naming the address.
    static func savedKeys(_ saved: JSONValue?, logger: Logger) -> [BluetoothAddress: BindKey] {
        guard case .object(let entries)? = saved?["bindkeys"] else { return [:] }
        var keys: [BluetoothAddress: BindKey] = [:]
        for (text, value) in entries {
            guard let address = try? BluetoothAddress(text), let hex = value.stringValue, let key = try? BindKey(hex: hex) else {
                logger.warning("Ignoring a saved bindkey that does not parse", metadata: ["address": "\(text)"])
                continue
            }
            keys[address] = key
        }
        return keys
    }

    /// A reload's keys and formats, taken at once; devices whose key changed have their key problems reported
    /// afresh and their counters forgotten.
    public func apply(_ config: Configuration) async {
        let keys = config.ble.bindkeys
        let changed = Set(keys.keys).union(settings.bindkeys.keys).filter { keys[$0] != settings.bindkeys[$0] }
        settings.bindkeys = keys
        settings.formats = config.ble.formats
        forgetKeyState(of: changed)
        logger.info("BLE keys and formats reloaded", metadata: ["bindkeys": "\(keys.count)", "formats": "\(settings.formats.count)"])
    }

    /// What was learnt with a device's old key no longer holds: its problems are reported afresh, its counters
    /// start over, and it shows as encrypted again only if the new key does not open its adverts either.
    private func forgetKeyState(of addresses: Set<BluetoothAddress>) {
        for (path, entry) in tracked where addresses.contains(entry.address) {
            var updated = entry
            updated.keyProblems = []
            updated.counters = [:]
            updated.encrypted = false
            tracked[path] = updated
            describeDevice(path)
        }
    }
}

