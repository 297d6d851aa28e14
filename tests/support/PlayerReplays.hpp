// SPDX-License-Identifier: MIT
#pragma once
// Small replays of three players {Position, [Armor,] Health, Ammo, Name} over N frames, written
// with a perturbation applied to chosen frames and players: what the divergence tests (pair and
// gate) compare. Files are written with ReplayWriter, so they are byte-for-byte reproducible.

#include "vtx/file/ReplayFile.hpp"
#include "vtx/file/ReplayWriter.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <functional>
#include <memory>
#include <string>

namespace vtxtest::players {

using namespace vtx;

inline std::string field(const std::string& name, const std::string& type, const std::string& container = "None", const std::string& structType = "")
{
    return R"({"name":")" + name + R"(","typeId":")" + type + R"(","containerType":")" + container + R"(","structType":")" + structType +
        R"(","keyId":"None"})";
}

/// Player {Position, [Armor,] Health, Ammo, Name}: Armor before Health moves Health's float slot,
/// so a file with Armor has a different layout and is compared by name.
inline std::string playerSchema(bool withArmor)
{
    std::string values = field("Position", "Vector") + ",";
    if (withArmor)
        values += field("Armor", "Float") + ",";
    values += field("Health", "Float") + "," + field("Ammo", "Int32") + "," + field("Name", "String");
    return R"({"buckets":["entity"],"property_mapping":[{"struct":"Player","values":[)" + values + "]}]}";
}

constexpr int kPlayers = 3;

/// What a perturbation does to frame `frame` of player `player`'s data before it is written.
using Perturb = std::function<void(int32_t frame, int player, PropertyContainerData&)>;

struct ReplaySpec {
    Backend backend = Backend::FlatBuffers;
    int32_t frames = 100;
    int32_t chunkFrames = 16;
    bool withArmor = false;
    bool compress = true; ///< false: chunks stored raw, so a test can damage one frame's table in place
    Perturb perturb;
};

inline PropertyContainerData player(int32_t frame, int p, bool withArmor)
{
    PropertyContainerData c;
    c.typeId = 0;
    c.vectors = {Vec3{double(frame) + p, double(frame) * 0.5, double(p)}};
    if (withArmor)
        c.floats.push_back(50.0f + float(p));
    c.floats.push_back(100.0f - float(frame) * 0.25f - float(p));
    c.int32s = {30 - frame % 30};
    c.strings = {"player_" + std::to_string(p)};
    return c;
}

inline std::string writeReplay(const QTemporaryDir& dir, const std::string& name, const ReplaySpec& spec)
{
    std::string path = dir.path().toStdString() + "/" + name;
    ReplayHeader header;
    header.schemaJson = playerSchema(spec.withArmor);
    header.replayName = name;
    WriterOptions wo;
    wo.backend = spec.backend;
    wo.chunkMaxFrames = spec.chunkFrames;
    wo.compress = spec.compress;
    auto w = ReplayWriter::create(path, header, wo);
    if (!w)
        qFatal("%s", w.message().c_str());
    for (int32_t f = 0; f < spec.frames; ++f) {
        FrameData frame;
        BucketData bucket;
        for (int p = 0; p < kPlayers; ++p) {
            PropertyContainerData c = player(f, p, spec.withArmor);
            if (spec.perturb)
                spec.perturb(f, p, c);
            bucket.uniqueIds.push_back("p" + std::to_string(p));
            bucket.entities.push_back(std::move(c));
        }
        frame.buckets.push_back(std::move(bucket));
        const int64_t t = int64_t(f) * kTicksPerSecond / 60;
        if (Status st = (*w)->addFrame(std::move(frame), t, t); !st)
            qFatal("%s", st.message().c_str());
    }
    if (auto s = (*w)->finish(); !s)
        qFatal("%s", s.message().c_str());
    return path;
}

inline std::shared_ptr<ReplayFile> openOrDie(const std::string& path)
{
    auto f = ReplayFile::open(path);
    if (!f)
        qFatal("%s", f.message().c_str());
    return *f;
}

/// Health of the float slot (the last float, with or without Armor before it).
inline float& health(PropertyContainerData& c)
{
    return c.floats.back();
}

} // namespace vtxtest::players
