import CarouselBackends
import CarouselCore
import Glibc

/// Which CEC adapter carouseld uses (`cec`): "off", a device named in the config
/// ("/dev/cec0": adapters that do not say their connector, vivid or a USB one), or "auto": the
/// adapter whose driver says it belongs to a screen's DRM connector (vc4, i915 and others).
enum CECAdapterChoice {
    /// The adapter for `setting` and the screens, with its Playback address claimed; nil when
    /// CEC is off or none fits. Says once in the log which adapter it uses, or why none.
    static func open(_ setting: String, outputs: [DisplayOutput]) -> CECAdapter? {
        switch setting {
        case "off":
            return nil
        case "auto":
            let screens = outputs.compactMap(drmConnector)
            var notes: [String] = []
            for path in devices() {
                guard let adapter = try? CECAdapter(path: path) else { continue }
                if let connector = adapter.connector, screens.contains(where: { $0 == connector }) {
                    return claimed(adapter, why: "card\(connector.card) connector \(connector.connectorID)")
                }
                notes.append("\(path) (\(adapter.adapterName)) " + (adapter.connector == nil
                    ? "names no connector; cec = \"\(path)\" uses it" : "belongs to another connector"))
            }
            Log.info("CEC: no adapter belongs to the screens" + (notes.isEmpty ? " (no /dev/cec*)" : ": " + notes.joined(separator: "; ")))
            return nil
        default:
            do {
                return claimed(try CECAdapter(path: setting), why: "cec = \"\(setting)\"")
            } catch {
                Log.warning("CEC: \(setting): \(error); the screen is switched by KMS alone")
                return nil
            }
        }
    }

    private static func claimed(_ adapter: CECAdapter, why: String) -> CECAdapter? {
        do {
            try adapter.claimPlayback()
        } catch {
            Log.warning("CEC: \(adapter.name): \(error); the screen is switched by KMS alone")
            return nil
        }
        Log.info("CEC: using \(adapter.name) (\(adapter.adapterName), \(why)), physical address "
                 + PhysicalAddress.shown(adapter.physicalAddress()))
        return adapter
    }

    /// A DRM output's card number and connector id, as CEC_ADAP_G_CONNECTOR_INFO gives them.
    static func drmConnector(_ output: DisplayOutput) -> (card: UInt32, connectorID: UInt32)? {
        guard let id = output.connectorID, let card = cardNumber(output.devicePath) else { return nil }
        return (card, id)
    }

    /// 0 for "/dev/dri/card0".
    static func cardNumber(_ path: String) -> UInt32? {
        guard let name = path.split(separator: "/").last, name.hasPrefix("card") else { return nil }
        return UInt32(name.dropFirst(4))
    }

    /// /dev/cec0, /dev/cec1, … in order.
    private static func devices() -> [String] {
        guard let dir = opendir("/dev") else { return [] }
        defer { closedir(dir) }
        var numbers: [Int] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("cec"), let number = Int(name.dropFirst(3)) { numbers.append(number) }
        }
        return numbers.sorted().map { "/dev/cec\($0)" }
    }
}
