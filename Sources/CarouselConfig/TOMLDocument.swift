import CarouselCore
import CTOML

/// A value of `carouseld.conf`, as toml++ read it.
package struct TOMLValue: Sendable {
    package let kind: carouseld_toml_kind
    /// The string for strings; the value as TOML writes it for scalars; empty for arrays and tables.
    package let text: String
    private let integer: Int64
    private let number: Double
    private let boolean: Bool
    private let stringCount: Int

    package init(_ entry: carouseld_toml_entry) {
        kind = entry.kind
        text = String(decoding: UnsafeRawBufferPointer(start: entry.text, count: entry.text_length), as: UTF8.self)
        integer = entry.integer
        number = entry.number
        boolean = entry.boolean != 0
        stringCount = Int(entry.string_count)
    }

    package var string: String? { kind == CAROUSELD_TOML_STRING ? text : nil }
    package var int: Int? { kind == CAROUSELD_TOML_INTEGER ? Int(exactly: integer) : nil }
    package var double: Double? { kind == CAROUSELD_TOML_FLOAT ? number : nil }
    package var bool: Bool? { kind == CAROUSELD_TOML_BOOLEAN ? boolean : nil }
    /// An array of strings such as `["mon", "tue"]`; nil for anything else.
    package var strings: [String]? {
        guard kind == CAROUSELD_TOML_ARRAY, stringCount >= 0 else { return nil }
        return stringCount == 0 ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The type's name in messages ("got floating-point number 2.5").
    package var typeName: String {
        switch kind {
        case CAROUSELD_TOML_STRING: return "string"
        case CAROUSELD_TOML_INTEGER: return "integer"
        case CAROUSELD_TOML_FLOAT: return "floating-point number"
        case CAROUSELD_TOML_BOOLEAN: return "bool"
        case CAROUSELD_TOML_DATE: return "date"
        case CAROUSELD_TOML_TIME: return "time"
        case CAROUSELD_TOML_DATE_TIME: return "date-time"
        case CAROUSELD_TOML_ARRAY: return "array"
        default: return "table"
        }
    }

    /// The value as written, as a message shows it.
    package var shown: String {
        switch kind {
        case CAROUSELD_TOML_STRING: return "\"\(text)\""
        case CAROUSELD_TOML_ARRAY: return "[…]"
        case CAROUSELD_TOML_TABLE: return "{…}"
        default: return text
        }
    }
}

/// The top-level keys of a TOML document and those of its top-level arrays of tables
/// (`[[output]]`), in file order, each with its line (toml++ through the `CTOML` shim).
package enum TOMLDocument {
    package struct Entry: Sendable {
        /// Empty for the header entry that starts each element of an array of tables.
        package let key: String
        package let line: Int
        package let value: TOMLValue
        /// The array of tables ("output" for `[[output]]`); nil at top level.
        package var table: String? = nil
        /// 0-based element of `table`; -1 at top level.
        package var tableIndex: Int = -1

        /// The header entry of an array-of-tables element (`[[output]]`), not a key.
        package var isTableHeader: Bool { table != nil && key.isEmpty }
    }

    package struct SyntaxError: Error, Sendable {
        package let message: String
        package let line: Int
        package let column: Int
    }

    package static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> [Entry] {
        var message = [CChar](repeating: 0, count: 512)
        var line: Int32 = 0, column: Int32 = 0
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { text in
                carouseld_toml_parse(text.baseAddress, text.count, &message, message.count, &line, &column)
            }
        }
        guard let document = parsed else {
            let text = String(decoding: message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw SyntaxError(message: text, line: Int(line), column: Int(column))
        }
        defer { carouseld_toml_free(document) }
        let entries = UnsafeBufferPointer(start: carouseld_toml_entries(document), count: carouseld_toml_count(document))
        return entries.map { entry in
            Entry(key: string(entry.key, entry.key_length), line: Int(entry.line), value: TOMLValue(entry),
                  table: entry.table_index < 0 ? nil : string(entry.table, entry.table_length),
                  tableIndex: Int(entry.table_index))
        }
    }

    private static func string(_ start: UnsafePointer<CChar>?, _ count: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    }
}
