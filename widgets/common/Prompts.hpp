// SPDX-License-Identifier: MIT
#pragma once
// Every question the GUI asks the user in a modal dialog (a file to open or save, a line of
// text, an error to acknowledge) goes through one Prompts object. The app uses real dialogs;
// tests install their own (tests/support/ScriptedPrompts.hpp) that answer as scripted and
// record what was asked, so no test can hang on a dialog and no product code checks whether
// it runs under test.

#include <QString>

class QWidget;

namespace vtxw {

class Prompts {
public:
    virtual ~Prompts() = default;
    /// A file to open; empty when the user cancelled.
    virtual QString openFilePath(QWidget* parent, const QString& title, const QString& dir, const QString& filter) = 0;
    /// A folder to open, starting in `dir`; empty when cancelled.
    virtual QString openDirectory(QWidget* parent, const QString& title, const QString& dir) = 0;
    /// A file to write; empty when the user cancelled.
    virtual QString saveFilePath(QWidget* parent, const QString& title, const QString& suggested, const QString& filter) = 0;
    /// A line of text, offered `text` to start with; false when the user cancelled.
    virtual bool askText(QWidget* parent, const QString& title, const QString& label, QString& text) = 0;
    /// Something failed and the user must know (`html`: rich text, already escaped).
    virtual void showError(QWidget* parent, const QString& title, const QString& html) = 0;
};

/// The prompts in use: real dialogs unless setPrompts() installed others.
Prompts& prompts();
/// Installs `p` (not owned; null: real dialogs again).
void setPrompts(Prompts* p);

} // namespace vtxw
