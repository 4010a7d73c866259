/// A C library object this value alone owns (a libdrm struct, a udev or libinput context),
/// released with the library's own function when the value goes away, on every path.
/// Non-copyable: no copy can free it a second time or use it after the free.
///
/// It lives in the one module that uses it. Built with -c release, a value of this generic
/// non-copyable type made by a failable init in another module and bound with `guard let`
/// was never deinitialised: every frame's atomic request leaked (the soak's RSS grew 4 KB a
/// frame once this type sat in CarouselCore; the same code in one module frees it).
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
