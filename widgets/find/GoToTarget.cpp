// SPDX-License-Identifier: MIT
#include "find/GoToTarget.hpp"

#include <cmath>

namespace vtxw {

std::optional<GoToTarget> GoToTarget::parse(const QString& text)
{
    QString t = text.trimmed();
    bool ok = false;
    GoToTarget target;
    if (t.endsWith(QLatin1Char('s'), Qt::CaseInsensitive)) {
        t.chop(1);
        target.kind = Kind::Seconds;
        target.seconds = t.trimmed().toDouble(&ok);
        if (!ok || !std::isfinite(target.seconds) || target.seconds < 0)
            return std::nullopt;
        return target;
    }
    target.frame = t.toInt(&ok);
    if (!ok || target.frame < 0)
        return std::nullopt;
    return target;
}

} // namespace vtxw
