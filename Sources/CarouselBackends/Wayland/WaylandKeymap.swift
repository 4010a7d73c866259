import CarouselCore
import CLinux
import CWayland
import Glibc

/// The keyboard's keymap as the compositor sends it. A key code means what the keymap says:
/// a virtual keyboard (wtype, a remote desktop) uploads its own keymap in which the code for
/// Right is not evdev's KEY_RIGHT. libxkbcommon turns each key into its keysym, and the keys
/// carouseld acts on are handed on as the evdev codes the input translator knows.
final class WaylandKeymap {
    private let context: OpaquePointer?
    private var keymap: OpaquePointer?
    private var state: OpaquePointer?

    init() { context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) }

    deinit { clear(); xkb_context_unref(context) }

    /// `wl_keyboard.keymap`: reads it from `fd` (ours to close). A keymap that cannot be read
    /// leaves key codes as evdev codes, as without a keymap.
    func load(fd: Int32, size: UInt32, format: UInt32) {
        defer { close(fd) }
        clear()
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, size > 1, let context else { return }
        guard let text = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), text != MAP_FAILED else {
            Log.warning("wayland: cannot map the keyboard's keymap: \(String(cString: strerror(errno)))")
            return
        }
        defer { munmap(text, Int(size)) }
        // The keymap is NUL-terminated: size counts the NUL.
        keymap = xkb_keymap_new_from_buffer(context, text.assumingMemoryBound(to: CChar.self), Int(size) - 1,
                                            XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        if keymap == nil { Log.warning("wayland: the keyboard's keymap does not compile; key codes are read as evdev codes") }
        state = keymap.flatMap { xkb_state_new($0) }
    }

    /// `wl_keyboard.modifiers`.
    func setModifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        if let state { xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group) }
    }

    /// The evdev code of the key carouseld knows that `key` types under the keymap (KEY_LEFT
    /// for whichever key types Left); nil for other keys. Without a keymap, `key` itself.
    func evdevCode(_ key: UInt32) -> UInt32? {
        guard let state else { return key }
        switch xkb_state_key_get_one_sym(state, key + 8) {  // xkb codes are evdev codes + 8
        case UInt32(XKB_KEY_Left): return UInt32(KEY_LEFT)
        case UInt32(XKB_KEY_Right): return UInt32(KEY_RIGHT)
        default: return nil
        }
    }

    private func clear() {
        xkb_state_unref(state); state = nil
        xkb_keymap_unref(keymap); keymap = nil
    }
}
