import CDRM

/// The properties of one KMS object by name, as atomic commits need their ids.
struct DrmProperties {
    struct Property {
        var id: UInt32
        var value: UInt64
        /// Enum and bitmask properties: value names ("rotate-90") and their values
        /// (bit numbers for bitmasks).
        var enums: [String: UInt64]
    }
    private var byName: [String: Property] = [:]

    init(fd: Int32, objectID: UInt32, objectType: UInt32) {
        guard let props = drmModeObjectGetProperties(fd, objectID, objectType) else { return }
        defer { drmModeFreeObjectProperties(props) }
        for i in 0..<Int(props.pointee.count_props) {
            guard let prop = drmModeGetProperty(fd, props.pointee.props[i]) else { continue }
            defer { drmModeFreeProperty(prop) }
            let name = withUnsafeBytes(of: prop.pointee.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            var enums: [String: UInt64] = [:]
            for e in 0..<Int(prop.pointee.count_enums) {
                let entry = prop.pointee.enums[e]
                let enumName = withUnsafeBytes(of: entry.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                enums[enumName] = entry.value
            }
            byName[name] = Property(id: prop.pointee.prop_id, value: props.pointee.prop_values[i], enums: enums)
        }
    }

    subscript(name: String) -> Property? { byName[name] }

    /// The id of a property every atomic driver has; throws naming it if absent.
    func id(_ name: String, on object: String) throws(DisplayError) -> UInt32 {
        guard let p = byName[name] else { throw .unsupported("\(object) has no \(name) property") }
        return p.id
    }
}
