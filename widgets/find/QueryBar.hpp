// SPDX-License-Identifier: MIT
#pragma once
// One inline bar for every expression the viewer takes (issue 26 item 6), instead of a modal
// dialog per command that lost the text on an error: filter the entity list, find the next
// frame where it holds, find all frames where it holds, plot it. The mode says what Enter does.
// ↑ / ↓ walk the mode's history (remembered), the word being typed completes from the open
// file's schema (types, properties, members after "Type."), and an expression that does not
// compile stays as typed with the error under it, a caret at its column. The examples offered
// are built from the file's own schema and compiled before they are shown
// (vtx::query::exampleExpressions). The bar knows no panel: `submitted` says what to run.

#include <QStringList>
#include <QWidget>

class QComboBox;
class QCompleter;
class QLineEdit;
class QStringListModel;
class QToolButton;

namespace vtx {
class Schema;
}

namespace vtxw {

class QueryErrorLine;

class QueryBar : public QWidget {
    Q_OBJECT
public:
    enum class Mode { Filter, FindNext, FindAll, Plot };

    explicit QueryBar(QWidget* parent = nullptr);

    /// The width the bar may take (the menu bar's room right of its menus): the field gets what
    /// the other controls leave. True when the bar's width changed (its menu bar must place it
    /// again).
    bool setRoom(int width);
    /// The open file's schema (null when none): completion and examples follow it.
    void setSchema(const vtx::Schema* schema);
    /// Shows the bar in `mode` with the keyboard in its field, the text selected.
    void activate(Mode mode);
    Mode mode() const;
    void setMode(Mode mode);
    QString text() const;
    void setText(const QString& text);
    /// The error shown under the field (empty when none) and its column (code points).
    QString errorText() const;
    int errorColumn() const;
    /// The mode's history, newest first (at most HistorySize, kept in QSettings).
    QStringList history(Mode mode) const;
    /// The examples for the open file and this mode (placeholder text and the ▾ menu).
    QStringList examples() const;
    QLineEdit* field() const { return m_field; }

    /// Enter: checks the text for the mode; on success remembers it and emits `submitted`,
    /// otherwise shows the error and keeps the text. Returns whether it was submitted.
    bool submit();
    /// Completion candidates for the word before the cursor (what the popup lists).
    QStringList completionsAtCursor() const;

    static QString modeName(Mode mode);
    static constexpr int HistorySize = 30;

signals:
    void submitted(vtxw::QueryBar::Mode mode, const QString& expression);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QString check(const QString& text, int* column) const;
    void showError(const QString& message, int column);
    void clearError();
    void remember(const QString& text);
    void stepHistory(int step);
    void updateCompletion();
    void insertCompletion(const QString& word);
    void updatePlaceholder();

    const vtx::Schema* m_schema = nullptr;
    QComboBox* m_mode;
    QLineEdit* m_field;
    QToolButton* m_examplesButton;
    QToolButton* m_run;
    QueryErrorLine* m_error;
    QCompleter* m_completer;
    QStringListModel* m_words;
    int m_historyIndex = -1; ///< -1: the draft; else an index into history(mode())
    QString m_draft; ///< what was typed before ↑ walked into the history
};

} // namespace vtxw
