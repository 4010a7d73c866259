// Why this target exists: toml++ (Debian's libtomlplusplus3) is a C++ library, and Swift
// reads C. This shim parses a document and flattens its top-level keys, and the keys of
// top-level arrays of tables (`[[output]]`), into plain structs with their source lines. It replaces TOMLKit, which links full Foundation (and with it
// 34 MB of ICU data), leaks every parsed document and gives no line for a value.
#ifndef CAROUSELD_TOML_H
#define CAROUSELD_TOML_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CAROUSELD_TOML_STRING,
    CAROUSELD_TOML_INTEGER,
    CAROUSELD_TOML_FLOAT,
    CAROUSELD_TOML_BOOLEAN,
    CAROUSELD_TOML_DATE,
    CAROUSELD_TOML_TIME,
    CAROUSELD_TOML_DATE_TIME,
    CAROUSELD_TOML_ARRAY,
    CAROUSELD_TOML_TABLE,
} carouseld_toml_kind;

/// One key, at top level or in an element of a top-level array of tables. Strings are owned by
/// the document and NUL-terminated; `text` is the string's value for strings, the elements
/// joined by "\n" for an array of strings (see `string_count`), empty for other arrays and
/// tables, and the value as TOML writes it for every other kind.
///
/// Each element of an array of tables starts with a header entry: an empty `key`, kind
/// CAROUSELD_TOML_TABLE, on the line of its `[[name]]` header (so an element without keys
/// still exists); its keys follow with the same `table` and `table_index`.
typedef struct {
    const char *key;
    size_t key_length;
    int line;  // 1-based line of the key
    carouseld_toml_kind kind;
    const char *text;
    size_t text_length;
    int64_t integer;
    double number;
    int boolean;
    /// The array of tables the key is in ("output" for `[[output]]`); empty at top level.
    const char *table;
    size_t table_length;
    /// 0-based element of that array; -1 at top level.
    int table_index;
    /// For an array whose elements are all strings without a "\n": how many (0 for `[]`);
    /// -1 for anything else.
    int64_t string_count;
} carouseld_toml_entry;

typedef struct carouseld_toml_document carouseld_toml_document;

/// Parses `length` bytes of UTF-8. On a syntax error returns NULL and writes the message
/// (NUL-terminated, cut to `message_size`), line and column (1-based).
carouseld_toml_document *carouseld_toml_parse(const char *text, size_t length,
                                              char *message, size_t message_size,
                                              int *line, int *column);
size_t carouseld_toml_count(const carouseld_toml_document *document);
/// The entries in file order (an element's header before its keys).
const carouseld_toml_entry *carouseld_toml_entries(const carouseld_toml_document *document);
void carouseld_toml_free(carouseld_toml_document *document);

#ifdef __cplusplus
}
#endif
#endif
