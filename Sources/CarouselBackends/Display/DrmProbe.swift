import CDRM

/// One display mode as offered by a connector.
package struct ModeInfo: Equatable {
    package var width: Int
    package var height: Int
    /// Vertical refresh in Hz, rounded.
    package var refresh: Int
    package var preferred: Bool
    /// The kernel's description, needed to set the mode.
    package var raw: drmModeModeInfo

    package init(_ raw: drmModeModeInfo) {
        self.raw = raw
        width = Int(raw.hdisplay)
        height = Int(raw.vdisplay)
        let total = Double(raw.htotal) * Double(raw.vtotal)
        refresh = raw.vrefresh != 0 ? Int(raw.vrefresh)
            : total > 0 ? Int((Double(raw.clock) * 1000 / total).rounded()) : 0
        preferred = raw.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0
    }

    package init(width: Int, height: Int, refresh: Int, preferred: Bool = false) {
        var raw = drmModeModeInfo()
        raw.hdisplay = UInt16(width); raw.vdisplay = UInt16(height); raw.vrefresh = UInt32(refresh)
        self.init(raw)
        self.preferred = preferred
    }

    /// "1280x800@60".
    package var label: String { "\(width)x\(height)@\(refresh)" }

    package static func == (a: ModeInfo, b: ModeInfo) -> Bool {
        a.width == b.width && a.height == b.height && a.refresh == b.refresh && a.preferred == b.preferred
    }
}

/// One connector of a card: its name as users write it ("HDMI-A-1"), state and modes.
package struct ConnectorInfo: Equatable {
    package var id: UInt32
    package var name: String
    package var connected: Bool
    package var modes: [ModeInfo]
    /// The encoder driving it now (0 if none) and every encoder it can use.
    package var encoderID: UInt32 = 0
    package var encoderIDs: [UInt32] = []
}

/// What a card offers, read in one go: connectors and CRTCs.
package struct DrmResources {
    package var connectors: [ConnectorInfo]
    package var crtcIDs: [UInt32]

    package init(connectors: [ConnectorInfo], crtcIDs: [UInt32]) {
        self.connectors = connectors; self.crtcIDs = crtcIDs
    }

    /// Reads resources and every connector of `fd`. Connector probing may light up outputs
    /// briefly on some hardware, as with any KMS client.
    package init(fd: Int32) throws(DisplayError) {
        guard let res = DrmObjects.resources(fd) else {
            throw .unsupported("drmModeGetResources failed: not a KMS device")
        }
        // Read through the handle each time: the id arrays live exactly as long as it does.
        crtcIDs = []
        for i in 0..<Int(res.pointer.pointee.count_crtcs) { crtcIDs.append(res.pointer.pointee.crtcs[i]) }
        connectors = []
        for i in 0..<Int(res.pointer.pointee.count_connectors) {
            if let c = DrmObjects.connector(fd, res.pointer.pointee.connectors[i]) { connectors.append(ConnectorInfo(c.pointer.pointee)) }
        }
    }

    /// The CRTC to drive `connector`: the one already driving it, else the first its encoders
    /// may use (`possible_crtcs`) that no other connector is using (that would steal the
    /// other screen's picture) and that is not in `excluding` (given to another screen of ours,
    /// not lit yet).
    package func crtc(for connector: ConnectorInfo, fd: Int32, excluding: Set<UInt32> = []) -> (id: UInt32, index: Int)? {
        func index(of crtc: UInt32) -> (UInt32, Int)? { crtcIDs.firstIndex(of: crtc).map { (crtc, $0) } }
        func crtcOfEncoder(_ id: UInt32) -> UInt32? {
            guard id != 0, let enc = DrmObjects.encoder(fd, id) else { return nil }
            let crtc = enc.pointer.pointee.crtc_id
            return crtc == 0 ? nil : crtc
        }
        if let current = crtcOfEncoder(connector.encoderID), !excluding.contains(current),
           let found = index(of: current) { return found }
        let busy = Set(connectors.filter { $0.id != connector.id }.compactMap { crtcOfEncoder($0.encoderID) })
            .union(excluding)
        for encoderID in connector.encoderIDs {
            guard let possible = DrmObjects.encoder(fd, encoderID)?.pointer.pointee.possible_crtcs else { continue }
            for (i, crtc) in crtcIDs.enumerated() where possible & (1 << UInt32(i)) != 0 && !busy.contains(crtc) {
                return (crtc, i)
            }
        }
        return nil
    }
}

extension ConnectorInfo {
    package init(_ c: drmModeConnector) {
        id = c.connector_id
        name = ConnectorInfo.name(type: c.connector_type, typeID: c.connector_type_id)
        // A writeback connector (seen once `ctl writeback` asked for them) is no screen.
        connected = c.connection == DRM_MODE_CONNECTED && c.connector_type != UInt32(DRM_MODE_CONNECTOR_WRITEBACK)
        modes = (0..<Int(c.count_modes)).map { ModeInfo(c.modes[$0]) }
        encoderID = c.encoder_id
        encoderIDs = (0..<Int(c.count_encoders)).map { c.encoders[$0] }
    }

    /// The name users write in config: type name, "-", type id ("HDMI-A-1", "Virtual-1"),
    /// the same as the kernel's sysfs names and xrandr's.
    package static func name(type: UInt32, typeID: UInt32) -> String {
        let typeName = drmModeGetConnectorTypeName(type).map { String(cString: $0) } ?? "Unknown\(type)"
        return "\(typeName)-\(typeID)"
    }
}
