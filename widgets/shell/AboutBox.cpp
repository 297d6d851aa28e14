// SPDX-License-Identifier: MIT
#include "shell/AboutBox.hpp"

#include "shell/AppIcon.hpp"

#include "vtx/base/LibraryVersions.hpp"

#include <QApplication>
#include <QMessageBox>

namespace vtxw {

QString aboutText()
{
    const vtx::LibraryVersions v = vtx::libraryVersions();
    const QString zstd = v.zstd == v.zstdBuilt
        ? QString::fromStdString(v.zstd)
        : QObject::tr("%1 (built with %2)").arg(QString::fromStdString(v.zstd), QString::fromStdString(v.zstdBuilt));
    const QString qt = QString::fromLatin1(qVersion()) == QLatin1String(QT_VERSION_STR)
        ? QString::fromLatin1(qVersion())
        : QObject::tr("%1 (built with %2)").arg(QString::fromLatin1(qVersion()), QLatin1String(QT_VERSION_STR));
    return QObject::tr("<h3>vtxscope %1</h3>"
                       "<p>A viewer and timeline scrubber for VTX replay files.</p>"
                       "<table>"
                       "<tr><td>Qt</td><td>%2</td></tr>"
                       "<tr><td>zstd</td><td>%3</td></tr>"
                       "<tr><td>FlatBuffers</td><td>%4</td></tr>"
                       "<tr><td>Protobuf</td><td>%5</td></tr>"
                       "</table>")
        .arg(QApplication::applicationVersion(), qt, zstd, QString::fromStdString(v.flatbuffers), QString::fromStdString(v.protobuf));
}

void showAboutBox(QWidget* parent)
{
    QMessageBox box(parent);
    box.setObjectName("aboutBox");
    box.setWindowTitle(QObject::tr("About vtxscope"));
    box.setTextFormat(Qt::RichText);
    box.setText(aboutText());
    box.setIconPixmap(appIcon().pixmap(96, 96));
    box.setStandardButtons(QMessageBox::Ok);
    box.exec();
}

} // namespace vtxw
