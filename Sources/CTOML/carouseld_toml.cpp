// See include/carouseld_toml.h for why this exists.
#include "carouseld_toml.h"
#include <toml++/toml.h>
#include <algorithm>
#include <cstring>
#include <deque>
#include <sstream>
#include <string>
#include <vector>

struct carouseld_toml_document {
    std::vector<carouseld_toml_entry> entries;
    std::deque<std::string> strings;  // a deque never moves its elements: entries point into it

    const char *keep(std::string s, size_t *length) {
        strings.push_back(std::move(s));
        *length = strings.back().size();
        return strings.back().c_str();
    }
};

static carouseld_toml_kind kind_of(const toml::node &node) {
    switch (node.type()) {
    case toml::node_type::string: return CAROUSELD_TOML_STRING;
    case toml::node_type::integer: return CAROUSELD_TOML_INTEGER;
    case toml::node_type::floating_point: return CAROUSELD_TOML_FLOAT;
    case toml::node_type::boolean: return CAROUSELD_TOML_BOOLEAN;
    case toml::node_type::date: return CAROUSELD_TOML_DATE;
    case toml::node_type::time: return CAROUSELD_TOML_TIME;
    case toml::node_type::date_time: return CAROUSELD_TOML_DATE_TIME;
    case toml::node_type::array: return CAROUSELD_TOML_ARRAY;
    default: return CAROUSELD_TOML_TABLE;
    }
}

static int line_of(const toml::key &key) { return static_cast<int>(key.source().begin.line); }

/// The elements of an array of strings joined by "\n", and how many; -1 when the node is not
/// such an array (or an element holds a "\n", which the join could not keep apart).
static int64_t join_strings(const toml::node &node, std::string *joined) {
    auto *array = node.as_array();
    if (!array) return -1;
    std::string text;
    for (size_t i = 0; i < array->size(); i++) {
        auto *element = array->get(i)->as_string();
        if (!element || element->get().find('\n') != std::string::npos) return -1;
        if (i > 0) text += '\n';
        text += element->get();
    }
    *joined = std::move(text);
    return static_cast<int64_t>(array->size());
}

/// Appends one entry; `table` is the array-of-tables name (kept by the document) or null.
static void add_entry(carouseld_toml_document &document, std::string key, int line, const toml::node &node,
                      const std::string *table, int table_index) {
    carouseld_toml_entry entry{};
    entry.key = document.keep(std::move(key), &entry.key_length);
    entry.line = line;
    entry.kind = kind_of(node);
    std::string shown;
    entry.string_count = -1;
    if (auto s = node.value<std::string>(); s && entry.kind == CAROUSELD_TOML_STRING) {
        shown = *s;
    } else if (entry.kind == CAROUSELD_TOML_ARRAY) {
        entry.string_count = join_strings(node, &shown);
    } else if (entry.kind != CAROUSELD_TOML_TABLE) {
        std::ostringstream out;
        node.visit([&out](auto &&value) { out << value; });
        shown = out.str();
    }
    entry.text = document.keep(std::move(shown), &entry.text_length);
    if (auto i = node.as_integer()) entry.integer = i->get();
    if (auto d = node.as_floating_point()) entry.number = d->get();
    if (auto b = node.as_boolean()) entry.boolean = b->get() ? 1 : 0;
    entry.table = table ? table->c_str() : "";
    entry.table_length = table ? table->size() : 0;
    entry.table_index = table_index;
    document.entries.push_back(entry);
}

extern "C" carouseld_toml_document *carouseld_toml_parse(const char *text, size_t length,
                                                         char *message, size_t message_size,
                                                         int *line, int *column) {
    toml::table table;
    try {
        table = toml::parse(std::string_view(text, length));
    } catch (const toml::parse_error &error) {
        if (message_size > 0) {
            std::snprintf(message, message_size, "%s", std::string(error.description()).c_str());
        }
        *line = static_cast<int>(error.source().begin.line);
        *column = static_cast<int>(error.source().begin.column);
        return nullptr;
    } catch (const std::exception &error) {  // out of memory and the like: report, never abort
        if (message_size > 0) std::snprintf(message, message_size, "%s", error.what());
        *line = 0;
        *column = 0;
        return nullptr;
    }
    auto *document = new carouseld_toml_document();
    for (auto &&[key, node] : table) {
        auto *tables = node.as_array();
        if (!tables || tables->empty() || !tables->is_array_of_tables()) {
            add_entry(*document, std::string(key.str()), line_of(key), node, nullptr, -1);
            continue;
        }
        // `[[name]]`: a header entry per element, then the element's keys.
        const std::string &name = document->strings.emplace_back(key.str());
        for (size_t index = 0; index < tables->size(); index++) {
            auto *element = tables->get(index)->as_table();
            if (!element) continue;  // is_array_of_tables() said otherwise; never happens
            // The `[[name]]` header's line; without one, the element's first key, else the array's.
            int line = static_cast<int>(element->source().begin.line);
            for (auto &&[inner, value] : *element) {
                if (line == 0 || (element->source().begin.line == 0 && line_of(inner) < line)) line = line_of(inner);
            }
            if (line == 0) line = line_of(key);
            add_entry(*document, "", line, *element, &name, static_cast<int>(index));
            for (auto &&[inner, value] : *element) {
                add_entry(*document, std::string(inner.str()), line_of(inner), value, &name, static_cast<int>(index));
            }
        }
    }
    // toml::table orders keys by name; messages read better in the file's order.
    std::stable_sort(document->entries.begin(), document->entries.end(),
                     [](const carouseld_toml_entry &a, const carouseld_toml_entry &b) { return a.line < b.line; });
    return document;
}

extern "C" size_t carouseld_toml_count(const carouseld_toml_document *document) {
    return document->entries.size();
}

extern "C" const carouseld_toml_entry *carouseld_toml_entries(const carouseld_toml_document *document) {
    return document->entries.data();
}

extern "C" void carouseld_toml_free(carouseld_toml_document *document) { delete document; }
