/// What `DecodeWorker` reports, shares under its lock and carries to the worker after it.
extension DecodeWorker {
    package struct Update: Equatable {
        package var ready: [Int] = []
        package var failed: [Int] = []
        package var isEmpty: Bool { ready.isEmpty && failed.isEmpty }
    }

    /// What the loop asks for, each list most urgent first.
    struct Wants: Equatable {
        /// Full cards kept.
        var full: [Int] = []
        /// Previews kept (a wider window than `full`), at `spec.preview`; the first
        /// `previewsAhead` are decoded before the full cards of cards not on screen.
        var previews: [Int] = []
        var previewsAhead = 0
        var visible: [Int] = []
        /// Indices someone blocks on in `waitUntilLoaded`: their full cards first, no previews.
        var blocking: [Int] = []
    }

    /// What the thread has made of them.
    struct Made {
        var cards: [Int: Card] = [:]
        var previews: [Int: Card] = [:]
        /// Cards that could not be made, and the file as it was when that decode started.
        var failures: [Int: (error: ImageError, file: FileStamp?)] = [:]
        /// The disk cache was pruned to this playlist (the thread's first idle work).
        var pruned = false
    }

    /// Decoded cards by path, at one card spec: what a reload carries to the next worker.
    package struct Carried {
        package var spec: CardSpec
        package var cards: [String: Card]
        /// Previews at `spec.preview`, so a fling just after a reload still finds them.
        package var previews: [String: Card] = [:]
    }
}
