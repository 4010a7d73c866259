import CDRM

/// An atomic request being built. Properties go in unchecked, one call each, and the first that
/// libdrm could not add (out of memory) sticks: the request is checked once, before it is
/// committed, as wlroots' `atomic_add` keeps one failure flag instead of a check per property.
struct AtomicRequest: ~Copyable {
    private let handle: CHandle<drmModeAtomicReqPtr>
    /// The errno of the first property that could not be added; nil while all went in.
    private(set) var failure: Int32?

    init?() {
        guard let handle = DrmObjects.atomicRequest() else { return nil }
        self.handle = handle
    }

    var pointer: drmModeAtomicReqPtr { handle.pointer }

    mutating func add(_ object: UInt32, _ property: UInt32, _ value: UInt64) {
        guard failure == nil else { return }
        let result = drmModeAtomicAddProperty(handle.pointer, object, property, value)
        if result < 0 { failure = -result }
    }
}
