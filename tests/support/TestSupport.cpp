// SPDX-License-Identifier: MIT
#include "TestSupport.hpp"

#include <QDir>
#include <QFileInfo>
#include <cmath>
#include <fstream>

namespace vtxtest {

std::string sourceDir()
{
    return VTXSCOPE_SOURCE_DIR;
}
std::string cliPath()
{
    return VTXSCOPE_CLI;
}

std::string generatedReplay(const QString& dir, vtxgen::Kind kind, vtx::Backend backend, int32_t frames, int32_t chunkFrames)
{
    std::string p = dir.toStdString() + "/" + vtxgen::kindName(kind) + "_" + vtx::backendName(backend) + "_" + std::to_string(frames) + "_" +
        std::to_string(chunkFrames) + ".vtx";
    if (!QFile::exists(QString::fromStdString(p))) {
        vtxgen::GeneratorOptions o;
        o.kind = kind;
        o.backend = backend;
        o.frames = frames;
        o.chunkFrames = chunkFrames;
        if (auto s = vtxgen::generateReplay(p, o); !s)
            qFatal("%s", s.message().c_str());
    }
    return p;
}

std::string samplesDir()
{
    const QByteArray env = qgetenv("VTXSCOPE_SAMPLES");
    if (!env.isEmpty())
        return QFileInfo(QString::fromLocal8Bit(env)).absoluteFilePath().toStdString();
    return QDir(QString::fromStdString(sourceDir()) + "/../shared/samples").absolutePath().toStdString();
}

bool samplesAvailable()
{
    return QFileInfo::exists(QString::fromStdString(samplePath("arena_from_fbs_ds.vtx")));
}
std::string samplePath(const std::string& name)
{
    return samplesDir() + "/" + name;
}
bool runningInCi()
{
    return qgetenv("CI") == "true";
}

nlohmann::json loadJson(const std::string& path)
{
    std::ifstream in(path);
    return nlohmann::json::parse(in, nullptr, false);
}

nlohmann::json toPlain(const vtx::Json& j)
{
    return nlohmann::json::parse(j.dump());
}

std::vector<std::string> jsonDiff(const nlohmann::json& a, const nlohmann::json& b, bool allowExtra, const std::string& path)
{
    std::vector<std::string> out;
    if (b.is_object()) {
        if (!a.is_object())
            return {path + ": expected an object, got " + a.dump()};
        for (auto it = b.begin(); it != b.end(); ++it) {
            if (!a.contains(it.key())) {
                out.push_back(path + "." + it.key() + ": missing");
                continue;
            }
            auto sub = jsonDiff(a.at(it.key()), it.value(), allowExtra, path + "." + it.key());
            out.insert(out.end(), sub.begin(), sub.end());
        }
        if (!allowExtra)
            for (auto it = a.begin(); it != a.end(); ++it)
                if (!b.contains(it.key()))
                    out.push_back(path + "." + it.key() + ": unexpected");
        return out;
    }
    if (b.is_array()) {
        if (!a.is_array() || a.size() != b.size())
            return {path + ": expected " + b.dump().substr(0, 200) + ", got " + a.dump().substr(0, 200)};
        for (size_t i = 0; i < b.size(); ++i) {
            auto sub = jsonDiff(a[i], b[i], allowExtra, path + "[" + std::to_string(i) + "]");
            out.insert(out.end(), sub.begin(), sub.end());
        }
        return out;
    }
    if (b.is_number() && a.is_number()) {
        if (b.is_number_float() || a.is_number_float()) {
            if (a.get<double>() != b.get<double>())
                out.push_back(path + ": expected " + b.dump() + ", got " + a.dump());
        } else if (a != b) {
            out.push_back(path + ": expected " + b.dump() + ", got " + a.dump());
        }
        return out;
    }
    if (a != b)
        out.push_back(path + ": expected " + b.dump().substr(0, 200) + ", got " + a.dump().substr(0, 200));
    return out;
}

std::string joinDiff(const std::vector<std::string>& d, size_t max)
{
    std::string s = std::to_string(d.size()) + " difference(s):";
    for (size_t i = 0; i < d.size() && i < max; ++i)
        s += "\n  " + d[i];
    return s;
}

std::vector<std::string> takeDisplayNames(nlohmann::json& frame, size_t* named)
{
    std::vector<std::string> wrong;
    if (named)
        *named = 0;
    for (auto& bucket : frame["buckets"])
        for (auto& e : bucket["entities"]) {
            auto it = e.find("display_name");
            if (it == e.end()) {
                wrong.push_back(e.value("unique_id", std::string("?")) + ": no display_name");
                continue;
            }
            if (!it->is_null()) {
                bool found = false;
                for (const auto& [k, v] : e["properties"].items())
                    found = found || (v.is_string() && v == *it);
                if (!found)
                    wrong.push_back(e.value("unique_id", std::string("?")) + ": display_name " + it->dump() + " is none of its values");
                if (named)
                    ++*named;
            }
            e.erase(it);
        }
    return wrong;
}

std::map<std::string, nlohmann::json> takeUnnamed(nlohmann::json& j, const std::string& path)
{
    std::map<std::string, nlohmann::json> out;
    if (j.is_object()) {
        if (auto it = j.find("unnamed"); it != j.end()) {
            out[path] = *it;
            j.erase(it);
        }
        for (auto& [k, v] : j.items()) {
            std::string child = path;
            child += '.';
            child += k;
            out.merge(takeUnnamed(v, child));
        }
    } else if (j.is_array()) {
        for (size_t i = 0; i < j.size(); ++i)
            out.merge(takeUnnamed(j[i], path + "[" + std::to_string(i) + "]"));
    }
    return out;
}

} // namespace vtxtest
