// SPDX-License-Identifier: MIT
#pragma once
// A ReplaySession frame requester the test controls: every request is held until the test
// answers it, inline (a cache hit) or from a thread of its own (a decode worker), so the order
// and thread of every answer is the test's choice. No sleeps, no timing.

#include "session/ReplaySession.hpp"

#include <QSignalSpy>
#include <thread>
#include <vector>

namespace vtxtest {

struct ControlledSource {
    struct Pending {
        int32_t frame;
        vtx::ChunkCache::Callback done;
    };
    std::vector<Pending> pending;
    std::shared_ptr<const vtx::ReplayFile> file;
    bool answerAtOnce = false; ///< answer inside the request (a cache hit) instead of holding it

    vtxw::ReplaySession::FrameRequester requester()
    {
        return [this](int32_t frame, vtx::ChunkCache::Callback done, vtx::RequestOptions) {
            if (answerAtOnce && file)
                done(file->frame(frame));
            else
                pending.push_back({frame, std::move(done)});
        };
    }
    vtx::Result<vtx::FrameHandle> decoded(int32_t frame) const { return file->frame(frame); }
    /// Answers request `i` on the UI thread (a cache hit).
    void answerInline(size_t i, const vtx::Result<vtx::FrameHandle>& r) { pending.at(i).done(r); }
    /// Answers request `i` from another thread (a decode worker) and waits until it has: the
    /// delivery is then queued on the UI thread and not yet run.
    void answerFromWorker(size_t i, const vtx::Result<vtx::FrameHandle>& r)
    {
        std::thread worker([&] { pending.at(i).done(r); });
        worker.join();
    }
};

/// Opens `path` in `s` and waits for the open's worker to answer.
inline bool openSession(vtxw::ReplaySession& s, const QString& path)
{
    QSignalSpy opened(&s, &vtxw::ReplaySession::opened);
    s.openAsync(path);
    return opened.wait(20000);
}

/// `s` asks `source` for its frames; opens `path` and gives `source` the file to answer from.
/// The open's own request (frame 0) is then pending.
inline bool openControlled(vtxw::ReplaySession& s, ControlledSource& source, const QString& path)
{
    s.setFrameRequester(source.requester());
    if (!openSession(s, path))
        return false;
    source.file = s.file();
    return true;
}

} // namespace vtxtest
