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
    QStringList suggestedPaths; ///< the path or folder each file question offered, in order

    QString openFilePath(QWidget*, const QString& title, const QString& dir, const QString&) override
    {
        suggestedPaths << dir;
        return nextPath(title);
    }
    QString openDirectory(QWidget*, const QString& title, const QString& dir) override
    {
        suggestedPaths << dir;
        return nextPath(title);
    }
    QString saveFilePath(QWidget*, const QString& title, const QString& suggested, const QString&) override
    {
        suggestedPaths << suggested;
        return nextPath(title);
    }
    QStringList textAnswers; ///< typed answers to the next text questions (else the offered text)
    bool askText(QWidget*, const QString& title, const QString&, QString& text) override
    {
        asked << title;
        if (!textAnswers.isEmpty())
            text = textAnswers.takeFirst();
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
