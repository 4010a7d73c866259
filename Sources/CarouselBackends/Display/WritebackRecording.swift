import CarouselCore
import CarouselPixels
import Glibc

/// The frames `ctl writeback` read back, kept in memory until the capture ends, then written
/// as raw XRGB8888 (`frame-NNN-WxH.xrgb`) with `frames.tsv` (each one's name and flip time)
/// into the client's directory. Writing as they come would hold the loop up between frames.
struct WritebackRecording {
    /// The client's directory (a descriptor of the capture's own).
    let directory: Int32
    private var frames: [(name: String, pixels: [UInt8], time: Double?)] = []

    init(directory: Int32) { self.directory = directory }

    /// True once every frame has its flip time.
    var allTimed: Bool { frames.allSatisfy { $0.time != nil } }
    var count: Int { frames.count }

    /// Copies `buffer` as frame `number` (from 1), shown at `time` if its flip came already.
    mutating func add(_ buffer: DumbBuffer, number: Int, time: Double?) {
        let digits = String(number), padded = String(repeating: "0", count: max(0, 3 - digits.count)) + digits
        let rowBytes = buffer.width * 4
        var rows = [UInt8](repeating: 0, count: rowBytes * buffer.height)
        rows.withUnsafeMutableBytes { out in
            RowCopy.copy(from: buffer.pixels, stride: buffer.stride, at: 0, 0, to: out.baseAddress!, stride: rowBytes, at: 0, 0,
                         width: buffer.width, height: buffer.height)
        }
        frames.append(("frame-\(padded)-\(buffer.width)x\(buffer.height).xrgb", rows, time))
    }

    /// A flip came: frames written back before their flip was seen were shown by it.
    mutating func flipped(at time: Double) {
        for i in frames.indices where frames[i].time == nil { frames[i].time = time }
    }

    /// Writes the frames and frames.tsv. From memory of our own: a file system that maps the
    /// writer's pages (9p) cannot take them from a dumb buffer (EFAULT).
    func write() {
        var list = ""
        for frame in frames {
            let file = openat(directory, frame.name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            let written = file < 0 ? -1 : frame.pixels.withUnsafeBytes { Glibc.write(file, $0.baseAddress, $0.count) }
            let error = Glibc.errno
            if file >= 0 { close(file) }
            guard written == frame.pixels.count else {
                Log.warning("writeback: \(frame.name): \(SystemError(call: file < 0 ? "openat" : "write", errno: error))")
                return
            }
            list += "\(frame.name)\t\(frame.time.map { String($0) } ?? "-")\n"
        }
        let file = openat(directory, "frames.tsv", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard file >= 0 else { return }
        _ = list.withCString { Glibc.write(file, $0, strlen($0)) }
        close(file)
    }
}
