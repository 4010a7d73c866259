import CarouselCore
import CYAML

/// A YAML document as a tree of nodes, built from libyaml's parser events. Each node keeps the
/// 1-based line where it starts, so errors about a recording can name the line.
/// Scalars stay text: the recording parser decides what is a number.
package indirect enum YAMLNode {
    case scalar(String, line: Int)
    case sequence([YAMLNode], line: Int)
    /// Pairs in file order (keys are nodes: libinput's `codes` and `absinfo` have integer keys).
    case mapping([(key: YAMLNode, value: YAMLNode)], line: Int)

    package var line: Int {
        switch self {
        case .scalar(_, let line), .sequence(_, let line), .mapping(_, let line): return line
        }
    }
    package var string: String? { if case .scalar(let s, _) = self { return s } else { return nil } }
    package var items: [YAMLNode]? { if case .sequence(let s, _) = self { return s } else { return nil } }
    package var pairs: [(key: YAMLNode, value: YAMLNode)]? { if case .mapping(let m, _) = self { return m } else { return nil } }

    /// The value of the first pair whose key is the scalar `key`.
    package subscript(key: String) -> YAMLNode? {
        pairs?.first(where: { $0.key.string == key })?.value
    }
}

/// A syntax error as libyaml reports it: the line where it noticed, and where the broken
/// construct began.
package struct YAMLSyntaxError: Error, Equatable {
    package var problem: String
    package var line: Int?
    package var context: String?
    package var contextLine: Int?
}

package enum YAMLTree {
    /// Parses the first document of `text`; nil for an empty stream.
    package static func parse(_ text: String) throws(YAMLSyntaxError) -> YAMLNode? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw YAMLSyntaxError(problem: "out of memory") }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(text.utf8)
        // Through Result: Swift 6.0's withUnsafeBufferPointer rethrows untyped errors.
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(YAMLSyntaxError) -> YAMLNode? in
                yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
                var builder = Builder()
                while !builder.done {
                    var event = yaml_event_t()
                    guard yaml_parser_parse(&parser, &event) == 1 else { throw syntaxError(parser) }
                    defer { yaml_event_delete(&event) }
                    try builder.add(event)
                }
                return builder.root
            }
        }
        return try parsed.get()
    }

    private static func syntaxError(_ parser: yaml_parser_t) -> YAMLSyntaxError {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
        if parser.error == YAML_READER_ERROR {
            // The reader reports a byte offset, not a line.
            return YAMLSyntaxError(problem: problem, line: nil, context: "reader", contextLine: Int(parser.problem_offset))
        }
        return YAMLSyntaxError(problem: problem, line: Int(parser.problem_mark.line) + 1,
                               context: parser.context.map { String(cString: $0) },
                               contextLine: parser.context == nil ? nil : Int(parser.context_mark.line) + 1)
    }

    /// Turns the event stream into nodes: a stack of open collections (classes, so appending
    /// to the innermost one never copies it).
    private struct Builder {
        private final class Open {
            package let isMapping: Bool, line: Int, anchor: String?
            package var items: [YAMLNode] = []
            package var pairs: [(key: YAMLNode, value: YAMLNode)] = []
            package var pendingKey: YAMLNode?
            package init(isMapping: Bool, line: Int, anchor: String?) { self.isMapping = isMapping; self.line = line; self.anchor = anchor }
        }
        private var stack: [Open] = []
        private var anchors: [String: YAMLNode] = [:]
        package private(set) var root: YAMLNode?
        package private(set) var done = false

        package mutating func add(_ event: yaml_event_t) throws(YAMLSyntaxError) {
            let line = Int(event.start_mark.line) + 1
            switch event.type {
            case YAML_SCALAR_EVENT:
                let s = event.data.scalar
                let text = String(decoding: UnsafeBufferPointer(start: s.value, count: s.length), as: UTF8.self)
                attach(.scalar(text, line: line), anchor: s.anchor.map { String(cString: $0) })
            case YAML_SEQUENCE_START_EVENT:
                stack.append(Open(isMapping: false, line: line, anchor: event.data.sequence_start.anchor.map { String(cString: $0) }))
            case YAML_MAPPING_START_EVENT:
                stack.append(Open(isMapping: true, line: line, anchor: event.data.mapping_start.anchor.map { String(cString: $0) }))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                let open = stack.removeLast()
                attach(open.isMapping ? .mapping(open.pairs, line: open.line) : .sequence(open.items, line: open.line),
                       anchor: open.anchor)
            case YAML_ALIAS_EVENT:
                let name = String(cString: event.data.alias.anchor)
                guard let node = anchors[name] else {
                    throw YAMLSyntaxError(problem: "found undefined alias '\(name)'", line: line)
                }
                attach(node, anchor: nil)
            case YAML_DOCUMENT_END_EVENT, YAML_STREAM_END_EVENT:
                done = true  // only the first document counts
            default:
                break  // stream and document start
            }
        }

        private mutating func attach(_ node: YAMLNode, anchor: String?) {
            if let anchor { anchors[anchor] = node }
            guard let top = stack.last else { root = node; return }
            if !top.isMapping {
                top.items.append(node)
            } else if let key = top.pendingKey {
                top.pairs.append((key, node))
                top.pendingKey = nil
            } else {
                top.pendingKey = node
            }
        }
    }
}
