/// A C library object this value alone owns (a libdrm struct, a udev or libinput context),
/// released with the library's own function when the value goes away, on every path.
/// Non-copyable: no copy can free it a second time or use it after the free.
package struct CHandle<Pointer>: ~Copyable {
    package let pointer: Pointer
    private let release: (Pointer) -> Void

    /// nil when the C call returned NULL (nothing to release).
    package init?(_ pointer: Pointer?, release: @escaping (Pointer) -> Void) {
        guard let pointer else { return nil }
        self.pointer = pointer
        self.release = release
    }

    deinit { release(pointer) }
}
