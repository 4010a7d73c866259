import CarouselConfig
import CarouselCore
import CarouselEngine
import CarouselPixels
import Glibc

/// The pixels layer takes plain values; here the daemon's settings become them.
extension ImageStore {
    convenience init(paths: [String], config: CarouselConfig, shell: ShellSettings = ShellSettings(), viewport: Size,
                     replacing previous: ImageStore? = nil, cache: (any CardCaching)? = nil, helperThreads: Int = 0,
                     urgentStart: Bool = false, loop: EventLoop? = nil, decoded: @escaping (Update) -> Void = { _ in }) {
        // A reload may change disk_cache_mb; the shared cache follows the newest settings.
        cache?.setLimit(megabytes: shell.media.diskCacheMB)
        self.init(paths: paths,
                  spec: CardSpec(config: config, maxImagePixels: shell.media.maxImagePixels,
                                 cardWidth: config.cardWidth.resolve(in: viewport.width),
                                 cardHeight: config.cardHeight.resolve(in: viewport.height)),
                  cacheMB: shell.media.cacheMB, replacing: previous, cache: cache, helperThreads: helperThreads,
                  urgentStart: urgentStart, loop: loop, decoded: decoded)
    }

}

extension CardCache {
    /// The daemon's cache: `--cache-dir`, else systemd's `$CACHE_DIRECTORY` (`CacheDirectory=`),
    /// else none. `disk_cache_mb = 0` keeps it off until a reload sets a size.
    static func forDaemon(directory commandLine: String?, shell: ShellSettings) -> CardCache? {
        let fromSystemd = getenv("CACHE_DIRECTORY").map { String(cString: $0) }
            // systemd joins several CacheDirectory= entries with ':'; ours is the first.
            .flatMap { $0.split(separator: ":").first.map(String.init) }
        guard let directory = commandLine ?? fromSystemd else {
            Log.info("card cache: off (no CACHE_DIRECTORY from systemd and no --cache-dir)")
            return nil
        }
        return CardCache(directory: directory, megabytes: shell.media.diskCacheMB)
    }

}
