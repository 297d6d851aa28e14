// SPDX-License-Identifier: MIT
#include "common/Prompts.hpp"

#include "common/FileDialogSize.hpp"

#include <QFileDialog>
#include <QInputDialog>
#include <QMessageBox>

namespace vtxw {

namespace {
class DialogPrompts final : public Prompts {
public:
    QString openFilePath(QWidget* parent, const QString& title, const QString& dir, const QString& filter) override
    {
        QFileDialog dialog(parent, title, dir, filter);
        dialog.setFileMode(QFileDialog::ExistingFile);
        return run(dialog, parent);
    }
    QString openDirectory(QWidget* parent, const QString& title, const QString& dir) override
    {
        QFileDialog dialog(parent, title, dir);
        dialog.setFileMode(QFileDialog::Directory);
        dialog.setOption(QFileDialog::ShowDirsOnly);
        return run(dialog, parent);
    }
    QString saveFilePath(QWidget* parent, const QString& title, const QString& suggested, const QString& filter) override
    {
        QFileDialog dialog(parent, title, suggested, filter);
        dialog.setAcceptMode(QFileDialog::AcceptSave);
        dialog.setFileMode(QFileDialog::AnyFile);
        return run(dialog, parent);
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

private:
    // What QFileDialog's static functions do, with a size and columns that read
    // (FileDialogSize): the static ones give no hold on the dialog.
    static QString run(QFileDialog& dialog, QWidget* parent)
    {
        fitFileDialog(dialog, parent);
        const bool accepted = dialog.exec() == QDialog::Accepted;
        rememberFileDialog(dialog);
        return accepted && !dialog.selectedFiles().isEmpty() ? dialog.selectedFiles().constFirst() : QString();
    }
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
