/// A listener struct at a fixed address for the rest of the run: libwayland keeps the pointer
/// it is given, so the listener tables live in static storage.
package func listenerTable<Listener>(_ listener: Listener) -> UnsafeMutablePointer<Listener> {
    let table = UnsafeMutablePointer<Listener>.allocate(capacity: 1)
    table.initialize(to: listener)
    return table
}

/// The Swift object a listener's `data` pointer was registered with.
package func listenerOwner<Owner: AnyObject>(_ data: UnsafeMutableRawPointer?, as type: Owner.Type) -> Owner? {
    data.map { Unmanaged<Owner>.fromOpaque($0).takeUnretainedValue() }
}

/// `data` for a listener: the object, not retained (it outlives its proxies).
package func listenerData(_ owner: AnyObject) -> UnsafeMutableRawPointer {
    Unmanaged.passUnretained(owner).toOpaque()
}
