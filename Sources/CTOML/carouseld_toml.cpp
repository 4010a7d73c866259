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
        carouseld_toml_entry entry{};
        entry.key = document->keep(std::string(key.str()), &entry.key_length);
        entry.line = static_cast<int>(key.source().begin.line);
        entry.kind = kind_of(node);
        std::string shown;
        if (auto s = node.value<std::string>(); s && entry.kind == CAROUSELD_TOML_STRING) {
            shown = *s;
        } else if (entry.kind != CAROUSELD_TOML_ARRAY && entry.kind != CAROUSELD_TOML_TABLE) {
            std::ostringstream out;
            node.visit([&out](auto &&value) { out << value; });
            shown = out.str();
        }
        entry.text = document->keep(std::move(shown), &entry.text_length);
        if (auto i = node.as_integer()) entry.integer = i->get();
        if (auto d = node.as_floating_point()) entry.number = d->get();
        if (auto b = node.as_boolean()) entry.boolean = b->get() ? 1 : 0;
        document->entries.push_back(entry);
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
