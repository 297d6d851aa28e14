// SPDX-License-Identifier: MIT
#pragma once
// The row removals and insertions that turn one list of keys into another, for models that
// show a frame's entities and must not reset on every frame: a reset collapses the view,
// re-lays out every row, hides and re-shows its scroll bars (each a synchronous round trip to
// the window system) and drops the current row. Keys in both lists keep their rows when their
// order agrees; a reordering or a repeated key replaces the whole list instead.

#include <unordered_set>
#include <vector>

namespace vtxw {

struct ListEdit {
    enum class Kind { Remove, Insert } kind;
    int first = 0; ///< the row (in the list as it is when this edit applies)
    int count = 0;
    int sourceFirst = 0; ///< Insert: where the inserted keys start in the target list
};

/// Edits applied in order turn `from` into `to`. Removals come first (bottom-up), then
/// insertions (top-down); every key kept is never removed unless the order changed.
template <class List, class Hash> std::vector<ListEdit> listEdits(const List& from, const List& to, Hash hash)
{
    using Key = std::decay_t<decltype(from[0])>;
    std::vector<ListEdit> edits;
    const int n = int(from.size()), m = int(to.size());
    std::unordered_set<Key, Hash> target(size_t(m), hash);
    for (int j = 0; j < m; ++j)
        target.insert(to[j]);
    std::unordered_set<Key, Hash> source(size_t(n), hash);
    for (int i = 0; i < n; ++i)
        source.insert(from[i]);
    auto replaceAll = [&] {
        edits.clear();
        if (n > 0)
            edits.push_back({ListEdit::Kind::Remove, 0, n, 0});
        if (m > 0)
            edits.push_back({ListEdit::Kind::Insert, 0, m, 0});
        return edits;
    };
    if (int(target.size()) != m || int(source.size()) != n)
        return replaceAll(); // a repeated key: which row is which cannot be told
    std::vector<int> kept; // positions in `from` that stay
    for (int i = n - 1; i >= 0;) {
        if (target.count(from[i])) {
            --i;
            continue;
        }
        const int last = i;
        while (i - 1 >= 0 && !target.count(from[i - 1]))
            --i;
        edits.push_back({ListEdit::Kind::Remove, i, last - i + 1, 0});
        --i;
    }
    for (int i = 0; i < n; ++i)
        if (target.count(from[i]))
            kept.push_back(i);
    // The kept keys must appear in `to` in the same order; then only insertions remain.
    int k = 0;
    for (int j = 0; j < m && k < int(kept.size()); ++j)
        if (to[j] == from[kept[size_t(k)]])
            ++k;
    if (k != int(kept.size()))
        return replaceAll();
    int row = 0;
    k = 0;
    for (int j = 0; j < m;) {
        if (k < int(kept.size()) && to[j] == from[kept[size_t(k)]]) {
            ++k, ++j, ++row;
            continue;
        }
        const int start = j;
        while (j < m && !(k < int(kept.size()) && to[j] == from[kept[size_t(k)]]))
            ++j;
        edits.push_back({ListEdit::Kind::Insert, row, j - start, start});
        row += j - start;
    }
    return edits;
}

} // namespace vtxw
