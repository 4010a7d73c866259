import CarouselCore
import CDRM

/// The properties of one KMS object by name, as atomic commits need their ids.
package struct DrmProperties {
    package struct Property {
        package var id: UInt32
        package var value: UInt64
        /// Enum and bitmask properties: value names ("rotate-90") and their values
        /// (bit numbers for bitmasks).
        package var enums: [String: UInt64]
        /// The driver sets it; a commit cannot (an overlay's fixed zpos).
        package var immutable: Bool
    }
    private var byName: [String: Property] = [:]

    package init(fd: Int32, objectID: UInt32, objectType: UInt32) {
        // Read through the handles each time: the arrays live exactly as long as they do.
        guard let props = DrmObjects.objectProperties(fd, objectID, objectType) else { return }
        for i in 0..<Int(props.pointer.pointee.count_props) {
            guard let prop = DrmObjects.property(fd, props.pointer.pointee.props[i]) else { continue }
            let name = withUnsafeBytes(of: prop.pointer.pointee.name) { string(fromCArray: $0) }
            var enums: [String: UInt64] = [:]
            for e in 0..<Int(prop.pointer.pointee.count_enums) {
                let entry = prop.pointer.pointee.enums[e]
                let enumName = withUnsafeBytes(of: entry.name) { string(fromCArray: $0) }
                enums[enumName] = entry.value
            }
            byName[name] = Property(id: prop.pointer.pointee.prop_id, value: props.pointer.pointee.prop_values[i], enums: enums,
                                    immutable: prop.pointer.pointee.flags & UInt32(DRM_MODE_PROP_IMMUTABLE) != 0)
        }
    }

    package subscript(name: String) -> Property? { byName[name] }

    /// The id of a property every atomic driver has; throws naming it if absent.
    package func id(_ name: String, on object: String) throws(DisplayError) -> UInt32 {
        guard let p = byName[name] else { throw .unsupported("\(object) has no \(name) property") }
        return p.id
    }
}
