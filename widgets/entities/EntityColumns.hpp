// SPDX-License-Identifier: MIT
#pragma once
// The entity list's columns: the Id and Type columns as wide as their text but at most a fifth
// and a quarter of the view (Type alone two fifths when the Id column is hidden), the Name
// column the rest. ResizeToContents alone let long type names ("BoneCompressionSettings") squeeze the names
// out of a narrow dock. Ids are long: the view elides them in the middle.

#include <QObject>

class QTreeView;

namespace vtxw {

class EntityColumns : public QObject {
    Q_OBJECT
public:
    EntityColumns(QTreeView* view, int nameColumn, int idColumn, int typeColumn);
    /// Re-fits now (after the rows changed).
    void fit();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QTreeView* m_view;
    QObject* m_viewport; ///< only compared, never called
    int m_id;
    int m_type;
};

} // namespace vtxw
