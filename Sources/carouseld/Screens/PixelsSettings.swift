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
