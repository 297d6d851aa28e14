// SPDX-License-Identifier: MIT
#pragma once
// The GUI's modal questions answered by the test instead of a person (common/Prompts.hpp): text
// questions take the offered text as the answer, file questions are answered from a queue
// (cancelled when it is empty), errors are recorded. Everything asked is kept for assertions.

#include "common/Prompts.hpp"

#include <QStringList>

namespace vtxtest {

class ScriptedPrompts final : public vtxw::Prompts {
public:
    QStringList asked; ///< the title of every question, in order
    QStringList errors; ///< the text of every error shown
    QStringList filePaths; ///< answers to the next file questions (taken from the front)

    QString openFilePath(QWidget*, const QString& title, const QString&, const QString&) override { return nextPath(title); }
    QString saveFilePath(QWidget*, const QString& title, const QString&, const QString&) override { return nextPath(title); }
    bool askText(QWidget*, const QString& title, const QString&, QString&) override
    {
        asked << title;
        return true;
    }
    void showError(QWidget*, const QString& title, const QString& html) override
    {
        asked << title;
        errors << html;
    }

private:
    QString nextPath(const QString& title)
    {
        asked << title;
        return filePaths.isEmpty() ? QString() : filePaths.takeFirst();
    }
};

/// Installs one ScriptedPrompts for the whole test process and returns it.
inline ScriptedPrompts& installScriptedPrompts()
{
    static ScriptedPrompts prompts;
    vtxw::setPrompts(&prompts);
    return prompts;
}

} // namespace vtxtest
