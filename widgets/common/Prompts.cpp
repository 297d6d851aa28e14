// SPDX-License-Identifier: MIT
#include "common/Prompts.hpp"

#include <QFileDialog>
#include <QInputDialog>
#include <QMessageBox>

namespace vtxw {

namespace {
class DialogPrompts final : public Prompts {
public:
    QString openFilePath(QWidget* parent, const QString& title, const QString& dir, const QString& filter) override
    {
        return QFileDialog::getOpenFileName(parent, title, dir, filter);
    }
    QString openDirectory(QWidget* parent, const QString& title, const QString& dir) override
    {
        return QFileDialog::getExistingDirectory(parent, title, dir);
    }
    QString saveFilePath(QWidget* parent, const QString& title, const QString& suggested, const QString& filter) override
    {
        return QFileDialog::getSaveFileName(parent, title, suggested, filter);
    }
    bool askText(QWidget* parent, const QString& title, const QString& label, QString& text) override
    {
        bool ok = false;
        const QString answer = QInputDialog::getText(parent, title, label, QLineEdit::Normal, text, &ok);
        if (ok)
            text = answer;
        return ok;
    }
    void showError(QWidget* parent, const QString& title, const QString& html) override { QMessageBox::critical(parent, title, html); }
};

DialogPrompts g_dialogs;
Prompts* g_prompts = &g_dialogs;
} // namespace

Prompts& prompts()
{
    return *g_prompts;
}
void setPrompts(Prompts* p)
{
    g_prompts = p ? p : &g_dialogs;
}

} // namespace vtxw
