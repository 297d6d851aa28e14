// SPDX-License-Identifier: MIT
#pragma once
// One line of text that gives way: as wide as its text when there is room, elided (with the
// whole text in its tooltip) when there is not. A QLabel's minimum width is its whole text, so
// one long label (the inspector's "s1mple · player_76561198000000000 (Player)") set the minimum
// width of its dock and pushed a 1024 px window past the screen's edge (issue 26 item 3).
// Right-click copies the whole text.

#include <QFrame>
#include <QString>

namespace vtxw {

class ElidedLabel : public QFrame {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr, Qt::TextElideMode mode = Qt::ElideRight);
    ElidedLabel(const QString& text, QWidget* parent, Qt::TextElideMode mode = Qt::ElideRight);

    QString text() const { return m_text; }
    void setText(const QString& text);
    void clear() { setText({}); }
    /// What the label shows now: the text, or its elided form when the label is narrower.
    QString shownText() const;
    bool isElided() const { return shownText() != m_text; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    QString m_text;
    Qt::TextElideMode m_mode;
};

} // namespace vtxw
