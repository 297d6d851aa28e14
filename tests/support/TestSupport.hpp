// SPDX-License-Identifier: MIT
#pragma once
// Shared test helpers: where the SDK samples are, JSON value comparison, temp files.

#include "vtx/export/JsonExport.hpp"
#include "vtxgen/Generator.hpp"

#include <QString>
#include <QTest>
#include <map>
#include <string>
#include <vector>

// Qt Test's QTRY_* macros wait 5 s of wall time for their condition: a wall-clock limit that a
// machine giving the test a fraction of a core can cross (issue 29: no wall-clock assertions in
// gating tests). They return as soon as the condition holds; the wait for a condition that never
// comes ends at CTest's per-test timeout, the one hang guard.
#undef QTRY_VERIFY
#define QTRY_VERIFY(expr) QTRY_VERIFY_WITH_TIMEOUT(expr, 600000)
#undef QTRY_VERIFY2
#define QTRY_VERIFY2(expr, messageExpression) QTRY_VERIFY2_WITH_TIMEOUT(expr, messageExpression, 600000)
#undef QTRY_COMPARE
#define QTRY_COMPARE(expr, expected) QTRY_COMPARE_WITH_TIMEOUT(expr, expected, 600000)

namespace vtxtest {

/// VTXSCOPE_SAMPLES, or ../shared/samples beside the project root.
std::string samplesDir();
bool samplesAvailable();
std::string samplePath(const std::string& name);
bool runningInCi();
nlohmann::json loadJson(const std::string& path);
/// Differences between `ours` and `expected`, compared as values (numbers by value, objects
/// by key); keys only in `ours` are reported unless `allowExtraKeys`.
std::vector<std::string> jsonDiff(const nlohmann::json& ours, const nlohmann::json& expected, bool allowExtraKeys = false,
                                  const std::string& path = "$");
std::string joinDiff(const std::vector<std::string>& d, size_t max = 10);
nlohmann::json toPlain(const vtx::Json& j);
/// Removes every "unnamed" object (frame JSON's values no schema name addresses) from `j` and
/// returns them by JSON path ("$.buckets[1].entities[0]" -> its "unnamed" object).
std::map<std::string, nlohmann::json> takeUnnamed(nlohmann::json& j, const std::string& path = "$");
/// Removes "display_name" from every entity of a frame JSON (ours only: expected files written
/// elsewhere do not have it) and returns what is wrong with them: a name that is not one of the
/// entity's own string property values in that frame. `named` counts the non-null names.
std::vector<std::string> takeDisplayNames(nlohmann::json& frame, size_t* named = nullptr);
std::string cliPath();
/// A generated replay in `dir` (kept there: later calls with the same arguments reuse it);
/// frames / chunkFrames 0 mean the kind's defaults. Fails the test process if generation fails.
std::string generatedReplay(const QString& dir, vtxgen::Kind kind, vtx::Backend backend, int32_t frames, int32_t chunkFrames);
std::string sourceDir();

} // namespace vtxtest

/// Skips (locally) or fails (CI=true) when the shared SDK samples are missing.
#define VTX_REQUIRE_SAMPLES()                                                                                                                        \
    do {                                                                                                                                             \
        if (!vtxtest::samplesAvailable()) {                                                                                                          \
            const QByteArray msg = QByteArray("SDK samples not found at ") + vtxtest::samplesDir().c_str() + " (set VTXSCOPE_SAMPLES)";              \
            if (vtxtest::runningInCi())                                                                                                              \
                QFAIL(msg.constData());                                                                                                              \
            QSKIP(msg.constData());                                                                                                                  \
        }                                                                                                                                            \
    } while (0)

/// Evaluates `result` once: QVERIFY2 evaluates its description in both branches, so the former
/// form ran a call written here (addFrame, finish, generateReplay, a stream step) two or three
/// times (clang-tidy bugprone-use-after-move found it on an addFrame(std::move(frame))).
#define VTX_VERIFY_OK(result)                                                                                                                        \
    do {                                                                                                                                             \
        const auto& vtxVerifiedResult_ = (result);                                                                                                   \
        QVERIFY2(vtxVerifiedResult_.isOk(), vtxVerifiedResult_.isOk() ? "" : vtxVerifiedResult_.message().c_str());                                  \
    } while (0)
