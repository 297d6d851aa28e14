// SPDX-License-Identifier: MIT
#pragma once
// The entity list's columns, in the order they matter: the Name column keeps room for its
// widest name (at least MinNameChars, at most MaxNameChars), the Type column as wide as its text (up to a third of the view, at least
// MinTypeChars) when that leaves the names their room, and
// the Id column (elided in the middle) only when at least MinIdChars of it fit besides both:
// an id cut to "e…0" or a type cut to "E…y" says nothing and takes the names' room (issue 26
// item 3, the entity list at 1024 px). A hidden column's text stays in the row's tooltip.
// ResizeToContents alone let long type names ("BoneCompressionSettings") squeeze the names out of
// a narrow dock.

#include <QObject>
#include <QTimer>

class QTreeView;

namespace vtxw {

class EntityColumns : public QObject {
    Q_OBJECT
public:
    EntityColumns(QTreeView* view, int nameColumn, int idColumn, int typeColumn);
    /// Re-fits now (after the rows changed).
    void fit();
    /// Whether the rows have ids apart from their names (without labels the names are the ids).
    void setIdsWanted(bool wanted);

    static constexpr int MinNameChars = 14;
    static constexpr int MaxNameChars = 16;
    static constexpr int MinIdChars = 14;
    static constexpr int MinTypeChars = 8;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    int textWidth(int column) const;
    QTreeView* m_view;
    QObject* m_viewport; ///< only compared, never called
    int m_name;
    int m_id;
    int m_type;
    bool m_idsWanted = true;
    /// Re-fits once the values settle: names change with the frame (an entity's label is a
    /// property), which dataChanged says for every row on every frame, too often to measure.
    QTimer m_refit;
};

} // namespace vtxw
