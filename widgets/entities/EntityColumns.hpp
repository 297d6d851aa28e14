#pragma once
// The entity list's columns: the Type column as wide as its text but at most two fifths of the
// view, the Name column the rest. ResizeToContents alone let long type names
// ("BoneCompressionSettings") squeeze the names out of a narrow dock.

#include <QObject>

class QTreeView;

namespace vtxw {

class EntityColumns : public QObject {
    Q_OBJECT
public:
    EntityColumns(QTreeView* view, int nameColumn, int typeColumn);
    /// Re-fits now (after the rows changed).
    void fit();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QTreeView* m_view;
    QObject* m_viewport; ///< only compared, never called
    int m_type;
};

} // namespace vtxw
