// SPDX-License-Identifier: MIT
#pragma once
// Keyboard rules for the window's text fields (UX.md ▸ Focus): Esc leaves a field and hands
// focus back to `home` (the timeline, where single-key shortcuts act); a second Esc clears the
// field it just left; Enter can hand focus on (the entity filter → its first match).

#include <QLineEdit>
#include <QObject>
#include <QPointer>
#include <functional>

namespace vtxw {

class TextFieldKeys : public QObject {
    Q_OBJECT
public:
    TextFieldKeys(QWidget* home, QObject* parent = nullptr);

    /// Applies the rules to `field`; `onEnter` (optional) runs on Enter / Return.
    void watch(QLineEdit* field, std::function<void()> onEnter = {});
    /// The field the last Esc left, while focus has stayed at home since; else null.
    QLineEdit* lastLeft() const { return m_lastLeft; }
    /// The second Esc: clears the field the first one left. False when there is none.
    bool clearLastLeft();

signals:
    /// A field was left with Esc (true) or that memory lapsed (false).
    void lastLeftChanged(bool any);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void forget();

    QPointer<QWidget> m_home;
    QPointer<QLineEdit> m_lastLeft;
    std::vector<std::pair<QPointer<QLineEdit>, std::function<void()>>> m_fields;
};

} // namespace vtxw
