import CarouselCore

/// A file rewritten again and again (state.json, the metrics file) that cannot be written says
/// so once, with the reason, and once more when it can be again: not on every rewrite.
final class WriteProblems {
    private var failing: String?

    func note(_ result: Result<Void, WholeFile.Failure>, path: String) {
        switch result {
        case .success:
            if failing != nil { Log.notice("\(path): written again") }
            failing = nil
        case .failure(let failure):
            if failing != failure.description {
                Log.warning("writing \(path): \(failure) (said once until it changes)")
            }
            failing = failure.description
        }
    }
}
