// SPDX-License-Identifier: MIT
#include "find/QueryBar.hpp"

#include "vtx/plot/ExpressionSeries.hpp"

#include "vtx/model/Schema.hpp"
#include "vtx/query/Expression.hpp"
#include "vtx/query/Lexer.hpp"
#include "vtx/query/QueryVocabulary.hpp"

#include <QAbstractItemView>
#include <QComboBox>
#include <QCompleter>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QSettings>
#include <QStringListModel>
#include <QStyle>
#include <QToolButton>

#include <algorithm>

namespace vtxw {

// The line under the field: a caret under the column the error is at, and the message after it.
class QueryErrorLine : public QWidget {
public:
    QueryErrorLine(QLineEdit* field, QWidget* parent) : QWidget(parent), m_field(field)
    {
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        setVisible(false);
    }
    void set(const QString& message, int column)
    {
        m_message = message;
        m_column = column;
        setToolTip(message);
        if (message.isEmpty()) {
            hide();
            return;
        }
        // A child of the window, laid over whatever is under the field, as wide as the text
        // needs (within the window).
        QWidget* top = m_field->window();
        if (parentWidget() != top)
            setParent(top);
        // Starting under the field and reaching left when the message needs more room than the
        // window has to the field's right (the bar sits at the window's right edge).
        const QPoint under = m_field->mapTo(top, QPoint(0, m_field->height()));
        const int want = fontMetrics().horizontalAdvance(m_message) + fontMetrics().horizontalAdvance(m_field->text()) + 60;
        const int w = std::clamp(want, m_field->width(), std::max(m_field->width(), top->width() - 8));
        const int left = std::clamp(top->width() - w - 4, 4, std::max(4, under.x()));
        setGeometry(left, under.y() + 1, w, sizeHint().height());
        raise();
        show();
        update();
    }
    QString message() const { return m_message; }
    int column() const { return m_column; }
    QSize sizeHint() const override { return {100, fontMetrics().height() + 6}; }
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        p.fillRect(rect(), palette().color(QPalette::ToolTipBase));
        p.setPen(QColor(0xC6, 0x28, 0x28));
        p.drawRect(rect().adjusted(0, 0, -1, -1));
        const int caretX = caretOffset();
        const QString caret = QStringLiteral("▲");
        const int caretWidth = fontMetrics().horizontalAdvance(caret);
        p.drawText(QRect(caretX - caretWidth / 2, 0, caretWidth, height()), Qt::AlignCenter, caret);
        const int textX = caretX + caretWidth / 2 + 6;
        p.drawText(QRect(textX, 0, width() - textX - 4, height()), Qt::AlignLeft | Qt::AlignVCenter,
                   fontMetrics().elidedText(m_message, Qt::ElideRight, width() - textX - 4));
    }

private:
    // The x, in this widget, of the column's character in the field: the field's frame, Qt's
    // 2 px text margin, the text before the column (a text scrolled sideways is not followed:
    // the caret then stays within the field).
    int caretOffset() const
    {
        const int frame = m_field->style()->pixelMetric(QStyle::PM_DefaultFrameWidth, nullptr, m_field);
        const int fieldLeft = m_field->mapTo(m_field->window(), QPoint(0, 0)).x() - (parentWidget() == m_field->window() ? x() : 0);
        const int advance = m_field->fontMetrics().horizontalAdvance(m_field->text().left(m_column));
        return std::clamp(fieldLeft + frame + 2 + m_field->textMargins().left() + advance, 6, std::max(6, fieldLeft + m_field->width() - 8));
    }

private:
    QLineEdit* m_field;
    QString m_message;
    int m_column = 0;
};

namespace {

const char* modeKey(QueryBar::Mode mode)
{
    switch (mode) {
    case QueryBar::Mode::Filter: return "filter";
    case QueryBar::Mode::FindNext: return "findNext";
    case QueryBar::Mode::FindAll: return "findAll";
    case QueryBar::Mode::Plot: return "plot";
    }
    return "filter";
}

QString historyKey(QueryBar::Mode mode)
{
    return QStringLiteral("query/history/") + QLatin1String(modeKey(mode));
}

// A byte offset into the UTF-8 form of `text` as a QString index.
int indexOfByte(const QString& text, size_t byte)
{
    return int(QString::fromStdString(text.toStdString().substr(0, byte)).size());
}

} // namespace

QString QueryBar::modeName(Mode mode)
{
    switch (mode) {
    case Mode::Filter: return tr("Filter");
    case Mode::FindNext: return tr("Find next");
    case Mode::FindAll: return tr("Find all");
    case Mode::Plot: return tr("Plot");
    }
    return {};
}

QueryBar::QueryBar(QWidget* parent) : QWidget(parent)
{
    setObjectName("queryBar");
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(8, 0, 2, 0);
    row->setSpacing(2);
    m_mode = new QComboBox(this);
    m_mode->setObjectName("queryMode");
    m_mode->setToolTip(tr("What Enter does with the expression"));
    for (Mode m : {Mode::Filter, Mode::FindNext, Mode::FindAll, Mode::Plot})
        m_mode->addItem(modeName(m), int(m));
    m_field = new QLineEdit(this);
    m_field->setObjectName("queryField");
    m_field->setClearButtonEnabled(true);
    m_field->setMinimumWidth(140);
    m_field->setToolTip(tr("An expression (README \"Query language\"). Enter runs it; ↑ / ↓ earlier ones; Tab or the list completes names."));
    m_examplesButton = new QToolButton(this);
    m_examplesButton->setText(tr("Examples"));
    m_examplesButton->setToolTip(tr("Expressions that work on this file"));
    m_examplesButton->setPopupMode(QToolButton::InstantPopup);
    auto* examplesMenu = new QMenu(m_examplesButton);
    m_examplesButton->setMenu(examplesMenu);
    connect(examplesMenu, &QMenu::aboutToShow, this, [this, examplesMenu] {
        examplesMenu->clear();
        const QStringList list = examples();
        for (const QString& e : list)
            examplesMenu->addAction(e, this, [this, e] {
                setText(e);
                m_field->setFocus(Qt::OtherFocusReason);
            });
        if (list.isEmpty())
            examplesMenu->addAction(tr("Open a replay for examples"))->setEnabled(false);
    });
    auto* run = m_run = new QToolButton(this);
    run->setText(tr("Run"));
    run->setObjectName("queryRun");
    run->setEnabled(false); // until a replay is open (setSchema)
    run->setToolTip(tr("Run the expression (Enter)"));
    connect(run, &QToolButton::clicked, this, &QueryBar::submit);
    // Emptied in Filter mode (the clear button, or every character deleted): the filter it set
    // goes too, as in the entity list's own field; the list stayed filtered while this field
    // said nothing.
    connect(m_field, &QLineEdit::textChanged, this, [this](const QString& text) {
        if (mode() == Mode::Filter && text.trimmed().isEmpty()) {
            clearError();
            emit submitted(Mode::Filter, QString());
        }
    });
    row->addWidget(m_mode);
    row->addWidget(m_field, 1);
    row->addWidget(m_examplesButton);
    row->addWidget(run);
    // No taller than a menu bar's items: a taller bar grew the menu bar, and a window that fits
    // 600 px had 3 px too few.
    for (QWidget* w : std::initializer_list<QWidget*>{m_mode, m_field, m_examplesButton, run})
        w->setMaximumHeight(fontMetrics().height() + 4);
    // The error floats under the field, over the panels: the bar sits in the menu bar, which
    // has no room for a second line.
    m_error = new QueryErrorLine(m_field, this);
    m_error->setObjectName("queryError");

    m_words = new QStringListModel(this);
    m_completer = new QCompleter(m_words, this);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    m_completer->setWidget(m_field);
    connect(m_completer, qOverload<const QString&>(&QCompleter::activated), this, &QueryBar::insertCompletion);

    m_field->installEventFilter(this);
    connect(m_field, &QLineEdit::returnPressed, this, [this] {
        if (!m_completer->popup()->isVisible())
            submit();
    });
    connect(m_field, &QLineEdit::textEdited, this, [this] {
        m_historyIndex = -1;
        clearError(); // the error was about the text as it was
        updateCompletion();
    });
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] {
        m_historyIndex = -1;
        clearError();
        updatePlaceholder();
    });
    updatePlaceholder();
}

bool QueryBar::setRoom(int width)
{
    // The field takes what the mode, Examples and Run leave, between a usable and a
    // comfortable width.
    const int others = m_mode->sizeHint().width() + m_examplesButton->sizeHint().width() + m_run->sizeHint().width() + 16;
    // Down to 12 characters: below that the menus would lose their room instead.
    const int field = std::clamp(width - others, fontMetrics().averageCharWidth() * 12, fontMetrics().averageCharWidth() * 60);
    if (m_field->minimumWidth() == field)
        return false;
    m_field->setMinimumWidth(field);
    updateGeometry();
    return true;
}

void QueryBar::setSchema(const vtx::Schema* schema)
{
    m_schema = schema;
    clearError();
    // With no replay there is nothing to run; a search or plot written for another replay's
    // schema ("Car.Transform" over a CS replay) goes (it stays in the history), one that still
    // compiles stays. The filter is the entity list's and stays, as its own field does.
    m_run->setEnabled(schema != nullptr);
    if (schema && mode() != Mode::Filter && !text().trimmed().isEmpty()) {
        int column = 0;
        if (!check(text(), &column).isEmpty())
            setText(QString());
    }
    updatePlaceholder();
}

void QueryBar::activate(Mode mode)
{
    setMode(mode);
    show();
    m_field->setFocus(Qt::ShortcutFocusReason);
    m_field->selectAll();
}

QueryBar::Mode QueryBar::mode() const
{
    return Mode(m_mode->currentData().toInt());
}

void QueryBar::setMode(Mode mode)
{
    m_mode->setCurrentIndex(m_mode->findData(int(mode)));
}

QString QueryBar::text() const
{
    return m_field->text();
}

void QueryBar::setText(const QString& text)
{
    m_field->setText(text);
    m_historyIndex = -1;
    clearError();
}

QString QueryBar::errorText() const
{
    return m_error->message();
}

int QueryBar::errorColumn() const
{
    return m_error->column();
}

QStringList QueryBar::history(Mode mode) const
{
    return QSettings().value(historyKey(mode)).toStringList();
}

QStringList QueryBar::examples() const
{
    QStringList out;
    if (!m_schema)
        return out;
    // The filter sees one frame: changed() needs the one before, which only the scans have.
    const bool withChanged = mode() == Mode::FindNext || mode() == Mode::FindAll;
    for (const std::string& e : vtx::query::exampleExpressions(*m_schema, withChanged))
        out << QString::fromStdString(e);
    return out;
}

QString QueryBar::check(const QString& text, int* column) const
{
    *column = 0;
    const QString t = text.trimmed();
    if (t.isEmpty())
        return mode() == Mode::Filter ? QString() : tr("type an expression, e.g. %1").arg(examples().value(0, QStringLiteral("type == Player")));
    const std::string utf8 = text.toStdString();
    if (mode() == Mode::Filter) {
        // One word filters by name, id or type, as in the entity list's own field.
        const auto tokens = vtx::query::tokenize(utf8);
        if (tokens.size() == 2 && tokens[0].kind == vtx::query::TokenKind::Path && tokens[0].text.find_first_of(".[") == std::string::npos)
            return {};
    }
    if (!m_schema)
        return tr("open a replay first");
    vtx::query::ExpressionError error;
    const auto e = vtx::query::Expression::compile(utf8, *m_schema, &error);
    // Plot mode plots a type's property for each entity ("Player.Health") as well as counts.
    if (!e && mode() == Mode::Plot && vtx::typedPropertyPath(*m_schema, utf8))
        return {};
    if (!e) {
        *column = int(error.column);
        QString why = QString::fromStdString(error.message);
        if (!error.suggestion.empty())
            why += tr(" (did you mean '%1'?)").arg(QString::fromStdString(error.suggestion));
        return why;
    }
    if (mode() == Mode::Filter && e->usesPrevious()) {
        *column = std::max(0, int(text.indexOf(QStringLiteral("changed"))));
        return tr("changed() needs the previous frame: the filter sees one frame (use Find next or Find all)");
    }
    if (mode() == Mode::Plot && e->usesPrevious()) {
        *column = std::max(0, int(text.indexOf(QStringLiteral("changed"))));
        return tr("changed() cannot be plotted: a series is read chunk by chunk (use Find all)");
    }
    return {};
}

bool QueryBar::submit()
{
    const QString t = m_field->text();
    int column = 0;
    if (const QString why = check(t, &column); !why.isEmpty()) {
        showError(why, column);
        m_field->setFocus(Qt::OtherFocusReason);
        m_field->setCursorPosition(std::min(column, int(t.size())));
        return false;
    }
    clearError();
    if (!t.trimmed().isEmpty())
        remember(t.trimmed());
    emit submitted(mode(), t.trimmed());
    return true;
}

void QueryBar::showError(const QString& message, int column)
{
    m_error->set(message, column);
}

void QueryBar::clearError()
{
    m_error->set({}, 0);
}

void QueryBar::remember(const QString& text)
{
    QStringList h = history(mode());
    h.removeAll(text);
    h.prepend(text);
    while (h.size() > HistorySize)
        h.removeLast();
    QSettings().setValue(historyKey(mode()), h);
    m_historyIndex = -1;
}

void QueryBar::stepHistory(int step)
{
    const QStringList h = history(mode());
    const int next = std::clamp(m_historyIndex + step, -1, int(h.size()) - 1);
    if (next == m_historyIndex)
        return;
    if (m_historyIndex == -1)
        m_draft = m_field->text(); // what was being typed comes back at the bottom
    m_historyIndex = next;
    m_field->setText(next == -1 ? m_draft : h[next]);
    clearError();
}

QStringList QueryBar::completionsAtCursor() const
{
    QStringList out;
    if (!m_schema)
        return out;
    const std::string before = m_field->text().left(m_field->cursorPosition()).toStdString();
    for (const std::string& w : vtx::query::complete(*m_schema, before).candidates)
        out << QString::fromStdString(w);
    return out;
}

void QueryBar::updateCompletion()
{
    if (!m_schema)
        return;
    const QString left = m_field->text().left(m_field->cursorPosition());
    const std::string before = left.toStdString();
    const vtx::query::Completion c = vtx::query::complete(*m_schema, before);
    // Offered while a word is typed, or right after "Type." where the members are the point.
    const bool afterDot = c.tokenStart > 0 && before[c.tokenStart - 1] == '.';
    if (c.candidates.empty() || (c.prefix.empty() && !afterDot)) {
        m_completer->popup()->hide();
        return;
    }
    QStringList words;
    for (const std::string& w : c.candidates)
        words << QString::fromStdString(w);
    m_words->setStringList(words);
    m_completer->setCompletionPrefix(QString::fromStdString(c.prefix));
    m_completer->complete();
}

void QueryBar::insertCompletion(const QString& word)
{
    if (!m_schema)
        return;
    const QString text = m_field->text();
    const int cursor = m_field->cursorPosition();
    const QString left = text.left(cursor);
    const vtx::query::Completion c = vtx::query::complete(*m_schema, left.toStdString());
    const int start = indexOfByte(left, c.tokenStart);
    m_field->setText(text.left(start) + word + text.mid(cursor));
    m_field->setCursorPosition(start + int(word.size()));
}

void QueryBar::updatePlaceholder()
{
    const QString example = examples().value(0);
    switch (mode()) {
    case Mode::Filter:
        m_field->setPlaceholderText(example.isEmpty() ? tr("a name, id or type, or an expression")
                                                      : tr("a name, id or type, or e.g. %1").arg(example));
        break;
    case Mode::FindNext:
    case Mode::FindAll:
    case Mode::Plot: m_field->setPlaceholderText(example.isEmpty() ? tr("an expression") : tr("e.g. %1").arg(example)); break;
    }
}

bool QueryBar::eventFilter(QObject* watched, QEvent* event)
{
    // The floating error belongs to the text being edited: it goes when the keyboard leaves
    // the field (Esc, a click elsewhere), the text stays.
    if (watched == m_field && event->type() == QEvent::FocusOut && !m_completer->popup()->isVisible())
        clearError();
    if (watched == m_field && event->type() == QEvent::KeyPress && !m_completer->popup()->isVisible()) {
        const auto* key = static_cast<QKeyEvent*>(event);
        switch (key->key()) {
        case Qt::Key_Up: stepHistory(+1); return true;
        case Qt::Key_Down: stepHistory(-1); return true;
        case Qt::Key_Tab: {
            // Tab completes a word with one candidate and lists several; with none it moves
            // the focus on, as everywhere.
            const QStringList words = completionsAtCursor();
            if (words.size() == 1)
                insertCompletion(words.front());
            else if (!words.isEmpty())
                updateCompletion();
            return !words.isEmpty();
        }
        default: break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace vtxw
