// SPDX-License-Identifier: MIT
#include "common/CsvFile.hpp"

#include <QCoreApplication>
#include <QFile>
#include <sstream>

namespace vtxw {

bool saveCsvFile(const vtx::AnalysisTable& table, const QString& path, QString* error)
{
    std::ostringstream out;
    vtx::writeCsv(table, out);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(QByteArray::fromStdString(out.str())) < 0) {
        if (error)
            *error = QCoreApplication::translate("vtxw::CsvFile", "Could not write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace vtxw
