// SPDX-License-Identifier: MIT
#include "vtx/cache/ChunkCache.hpp"

#include <algorithm>
#include <cmath>
#include <future>
#include <sys/resource.h>
#include <unistd.h>

namespace vtx {

size_t defaultCacheBudget()
{
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0)
        return size_t(1) << 30;
    return size_t(pages) * size_t(page) / 4;
}

ChunkCache::ChunkCache(std::shared_ptr<const ReplayFile> file, const CacheOptions& o)
    : m_file(std::move(file))
    , m_budget(o.budgetBytes)
    , m_workerCount(o.workers ? o.workers : std::max(1u, std::thread::hardware_concurrency()))
    , m_cores(o.cores ? o.cores : std::max(1u, std::thread::hardware_concurrency()))
{
    m_policy = makeCachePolicy(o.policy);
    if (!m_policy)
        m_policy = makeCachePolicy("adaptive");
    m_slots.resize(m_file->chunks().size());
    m_stats.policy = m_policy->name();
    for (unsigned i = 0; i < m_workerCount; ++i)
        m_workers.emplace_back([this] { workerLoop(); });
}

ChunkCache::~ChunkCache()
{
    std::vector<Completion> orphans;
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (auto& t : m_workers)
        t.join();
    for (auto& s : m_slots)
        for (auto& w : s.waiters)
            orphans.emplace_back(std::move(w.done), Result<FrameHandle>(Error{m_file->path() + ": cache closed"}));
    for (auto& [cb, r] : orphans)
        cb(r);
}

bool ChunkCache::extendTo(std::shared_ptr<const ReplayFile> grown)
{
    std::lock_guard lock(m_mutex);
    const auto& before = m_file->chunks();
    const auto& after = grown->chunks();
    if (after.size() < before.size() || !std::equal(before.begin(), before.end(), after.begin()))
        return false;
    m_file = std::move(grown);
    m_slots.resize(after.size());
    return true;
}

CacheGeometry ChunkCache::geometryLocked() const
{
    CacheGeometry g;
    for (const auto& c : m_file->chunks())
        g.chunkStartFrames.push_back(c.startFrame);
    g.frameCount = m_file->frameCount();
    g.budgetBytes = m_budget;
    double stored = 0;
    for (const auto& c : m_file->chunks())
        stored += c.chunkSizeBytes;
    g.estimatedChunkBytes = m_slots.empty() ? 0 : stored * m_bytesPerStoredByte / double(m_slots.size());
    g.decodeMs = m_stats.decodes ? m_stats.decodeMs : 50;
    g.workers = m_workerCount;
    return g;
}

size_t ChunkCache::estimateBytesLocked(size_t c) const
{
    return size_t(double(m_file->chunks()[c].chunkSizeBytes) * m_bytesPerStoredByte);
}

Result<FrameHandle> ChunkCache::handleFor(const std::shared_ptr<const DecodedChunk>& chunk, int32_t frame) const
{
    if (size_t(frame - chunk->startFrame()) >= chunk->frameCount())
        return Error{m_file->path() + ": frame " + std::to_string(frame) + " is missing from chunk " + std::to_string(chunk->index())};
    if (Status s = chunk->frameStatus(size_t(frame - chunk->startFrame())); !s)
        return Error{s.message()};
    return FrameHandle(chunk, frame);
}

void ChunkCache::request(int32_t frame, Callback done, RequestOptions o)
{
    std::vector<Completion> completions;
    {
        std::lock_guard lock(m_mutex);
        std::optional<size_t> c;
        if (frame >= 0 && frame < m_file->frameCount())
            c = m_file->chunkForFrame(frame);
        if (!c) {
            completions.emplace_back(
                std::move(done),
                Result<FrameHandle>(Error{m_file->path() + ": frame " + std::to_string(frame) +
                                              (frame < 0 || frame >= m_file->frameCount() ? " is out of range" : " is not covered by the seek table"),
                                          Errc::OutOfRange}));
        } else {
            if (o.channel >= 0) {
                for (auto& s : m_slots) {
                    auto it = std::stable_partition(s.waiters.begin(), s.waiters.end(), [&](const Waiter& w) { return w.channel != o.channel; });
                    for (auto w = it; w != s.waiters.end(); ++w) {
                        ++m_stats.superseded;
                        completions.emplace_back(std::move(w->done), Result<FrameHandle>(Error{"superseded", Errc::Superseded}));
                    }
                    s.waiters.erase(it, s.waiters.end());
                }
            }
            if (o.observe) {
                const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_start).count();
                applyPlanLocked(m_policy->observe({frame, ms}, geometryLocked()));
            }
            Slot& s = m_slots[*c];
            std::shared_ptr<const DecodedChunk> chunk = s.chunk ? s.chunk : s.alive.lock();
            if (chunk) {
                ++m_stats.hits;
                if (s.prefetched && s.uses == 0)
                    ++m_stats.prefetchUsed;
                ++s.uses;
                s.lastUse = ++m_clock;
                if (!s.chunk && evictForLocked(s.bytes, *c, 1e300)) { // re-admit a chunk kept alive by a handle
                    s.chunk = chunk;
                    m_resident += s.bytes;
                    m_stats.peakResidentBytes = std::max(m_stats.peakResidentBytes, m_resident);
                }
                completions.emplace_back(std::move(done), handleFor(chunk, frame));
            } else {
                ++m_stats.misses;
                if (s.prefetched && s.uses == 0 && s.decoding)
                    ++m_stats.prefetchUsed; // a late prefetch still saves part of the wait
                ++s.uses;
                s.lastUse = ++m_clock;
                s.failed = false; // a demand retries a chunk that failed before
                s.waiters.push_back({frame, std::move(done), o.channel, ++m_waiterCount});
                if (!s.decoding)
                    m_demand.push_back(*c);
            }
        }
    }
    m_wake.notify_all();
    for (auto& [cb, r] : completions)
        cb(r);
}

Result<FrameHandle> ChunkCache::get(int32_t frame, RequestOptions o)
{
    std::promise<Result<FrameHandle>> p;
    auto f = p.get_future();
    request(
        frame, [&p](const Result<FrameHandle>& r) { p.set_value(r); }, o);
    return f.get();
}

std::optional<FrameHandle> ChunkCache::peek(int32_t frame) const
{
    std::lock_guard lock(m_mutex);
    if (frame < 0 || frame >= m_file->frameCount())
        return std::nullopt;
    auto c = m_file->chunkForFrame(frame);
    if (!c)
        return std::nullopt;
    const Slot& s = m_slots[*c];
    auto chunk = s.chunk ? s.chunk : s.alive.lock();
    if (!chunk)
        return std::nullopt;
    auto h = handleFor(chunk, frame);
    return h ? std::optional<FrameHandle>(*h) : std::nullopt;
}

void ChunkCache::applyPlanLocked(CachePlan plan)
{
    m_plan = std::move(plan);
    m_prefetch = m_plan.prefetch;
    m_prefetchPos = 0;
    dropOutsideWindowLocked();
}

void ChunkCache::dropOutsideWindowLocked()
{
    if (!m_plan.dropOutsideWindow)
        return;
    for (size_t c = 0; c < m_slots.size(); ++c)
        if (m_slots[c].chunk && !isProtectedLocked(c))
            evictLocked(c);
}

bool ChunkCache::isProtectedLocked(size_t c) const
{
    const long d = long(c) - long(m_plan.center);
    if (d >= -m_plan.back && d <= m_plan.forward)
        return true;
    if (std::find(m_plan.hot.begin(), m_plan.hot.end(), c) != m_plan.hot.end())
        return true;
    // Referenced outside the cache (a frame on screen, a pinned frame): never dropped.
    return m_slots[c].chunk && m_slots[c].chunk.use_count() > 1;
}

double ChunkCache::keepScoreLocked(size_t c) const
{
    const double d = double(c) - double(m_plan.center);
    double dist = std::abs(d);
    if (m_plan.direction != 0 && d * m_plan.direction < 0)
        dist *= 2; // behind the motion goes first
    // Scan resistance: chunks requested more than once (revisited spots) outrank one-offs.
    const Slot& s = m_slots[c];
    return (s.uses >= 2 ? 1e6 : 0) - dist * 1e3 + double(s.lastUse) * 1e-9;
}

void ChunkCache::evictLocked(size_t c)
{
    Slot& s = m_slots[c];
    if (!s.chunk)
        return;
    if (s.prefetched && s.uses == 0) {
        ++m_stats.prefetchWasted;
        m_stats.prefetchWastedBytes += s.bytes;
    }
    s.alive = s.chunk;
    s.chunk.reset();
    m_resident -= s.bytes;
    ++m_stats.evictions;
}

bool ChunkCache::evictForLocked(size_t need, size_t exclude, double belowScore)
{
    if (need > m_budget)
        return false;
    while (m_resident + need > m_budget) {
        size_t victim = SIZE_MAX;
        double best = belowScore;
        for (size_t c = 0; c < m_slots.size(); ++c) {
            if (c == exclude || !m_slots[c].chunk || isProtectedLocked(c))
                continue;
            const double score = keepScoreLocked(c);
            if (score < best) {
                best = score;
                victim = c;
            }
        }
        if (victim == SIZE_MAX)
            return false;
        evictLocked(victim);
    }
    return true;
}

bool ChunkCache::hasWorkLocked() const
{
    if (!m_demand.empty())
        return true;
    return prefetchMayStartLocked() && m_prefetchPos < m_prefetch.size();
}

bool ChunkCache::prefetchMayStartLocked() const
{
    if (m_prefetchRunning >= std::max(1u, m_workerCount - 1))
        return false;
    // Beside the first decode of an open someone waits for, a prefetch only takes a spare core:
    // on 2 cores the prefetch of chunk 1 ran beside chunk 0's decode (both in fresh memory) and
    // the UI thread's setting up, and the first frame came later (docs/PERFORMANCE.md, "Open in
    // the window"). Later, beside a jump's decode, it stays: a run of random jumps took twice as
    // long when prefetches waited for every demand (the neighbours they decode are hits after).
    const bool opening = m_stats.decodes == 0;
    return m_demandRunning == 0 || !opening || m_demandRunning + m_prefetchRunning + 2 <= m_cores;
}

std::optional<std::pair<size_t, bool>> ChunkCache::pickJobLocked()
{
    while (!m_demand.empty()) {
        const size_t c = m_demand.front();
        m_demand.pop_front();
        const Slot& s = m_slots[c];
        if (!s.chunk && !s.decoding && !s.waiters.empty())
            return std::pair{c, false};
    }
    if (!prefetchMayStartLocked())
        return std::nullopt;
    while (m_prefetchPos < m_prefetch.size()) {
        const size_t c = m_prefetch[m_prefetchPos++];
        Slot& s = m_slots[c];
        if (s.chunk || s.decoding || s.failed)
            continue;
        if (auto alive = s.alive.lock()) { // still in use elsewhere: take it back for free
            if (evictForLocked(s.bytes, c, keepScoreLocked(c))) {
                s.chunk = alive;
                m_resident += s.bytes;
                m_stats.peakResidentBytes = std::max(m_stats.peakResidentBytes, m_resident);
            }
            continue;
        }
        // Only prefetch what fits without evicting something worth more; otherwise stop
        // prefetching rather than thrash.
        size_t inflight = 0;
        for (size_t k = 0; k < m_slots.size(); ++k)
            if (m_slots[k].decoding)
                inflight += estimateBytesLocked(k);
        const double score = keepScoreLocked(c);
        size_t evictable = 0;
        for (size_t k = 0; k < m_slots.size(); ++k)
            if (m_slots[k].chunk && !isProtectedLocked(k) && keepScoreLocked(k) < score)
                evictable += m_slots[k].bytes;
        if (m_resident + inflight + estimateBytesLocked(c) > m_budget + evictable) {
            m_prefetch.clear();
            m_prefetchPos = 0;
            return std::nullopt;
        }
        return std::pair{c, true};
    }
    return std::nullopt;
}

void ChunkCache::workerLoop()
{
    // Decoding yields to the thread that shows frames: on Linux nice applies per thread.
    (void)setpriority(PRIO_PROCESS, 0, 5);
    std::unique_lock lock(m_mutex);
    while (true) {
        m_wake.wait(lock, [&] { return m_stop || hasWorkLocked(); });
        if (m_stop)
            return;
        auto job = pickJobLocked();
        if (!job)
            continue;
        const auto [c, prefetch] = *job;
        m_slots[c].decoding = true;
        m_slots[c].decodeStartedAt = m_waiterCount;
        ++(prefetch ? m_prefetchRunning : m_demandRunning);
        const std::shared_ptr<const ReplayFile> file = m_file; // extendTo() may swap it meanwhile
        lock.unlock();

        const auto t0 = std::chrono::steady_clock::now();
        auto decoded = file->decodeChunkStreaming(c, earlyFrames(c));
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

        lock.lock();
        Slot& s = m_slots[c];
        s.decoding = false;
        --(prefetch ? m_prefetchRunning : m_demandRunning);
        std::vector<Completion> completions;
        std::function<void(size_t)> report;
        if (!decoded) {
            s.failed = true;
            if (!s.failureReported)
                report = m_onChunkFailed;
            s.failureReported = true;
            // A waiter that came after the decode passed its frame waited for the whole chunk;
            // when its frame lies before the damage the decode found, another decode hands it
            // out (every frame before the damage is reached). Waiters that were there from the
            // start had their chance: a decode that failed before reaching their frame (the
            // file gone) would fail again, so they get the error and nothing loops.
            const std::optional<ChunkDamage> damage = file->knownDamage(c);
            std::vector<Waiter> readable;
            for (auto& w : s.waiters) {
                if (damage && w.frame < damage->firstFrame && w.since > s.decodeStartedAt)
                    readable.push_back(std::move(w));
                else
                    completions.emplace_back(std::move(w.done), Result<FrameHandle>(decoded.error()));
            }
            s.waiters = std::move(readable);
            if (!s.waiters.empty()) {
                s.failed = false;
                m_demand.push_back(c);
            }
        } else {
            const auto& chunk = *decoded;
            ++m_stats.decodes;
            m_stats.decodeMs = m_stats.decodes == 1 ? ms : 0.8 * m_stats.decodeMs + 0.2 * ms;
            s.bytes = chunk->memoryBytes();
            m_stats.bytesDecoded += s.bytes;
            m_bytesPerStoredByte =
                double(s.bytes) / double(std::max<uint32_t>(1, m_file->chunks()[c].chunkSizeBytes)) * 0.5 + m_bytesPerStoredByte * 0.5;
            s.prefetched = prefetch && s.waiters.empty();
            if (prefetch)
                ++m_stats.prefetchDecodes;
            s.alive = chunk;
            // Demand results may evict anything unprotected; prefetch only what is worth less.
            const bool admitted = evictForLocked(s.bytes, c, s.waiters.empty() ? keepScoreLocked(c) : 1e300);
            if (admitted) {
                s.chunk = chunk;
                m_resident += s.bytes;
                m_stats.peakResidentBytes = std::max(m_stats.peakResidentBytes, m_resident);
                // A chunk the last plan could not drop because something still referenced it
                // (a handle being handed over) goes now; otherwise a window policy would keep it
                // until the next plan (seen: chunk 5 kept after moving to 14–16).
                dropOutsideWindowLocked();
            } else if (s.prefetched) {
                ++m_stats.prefetchWasted;
                m_stats.prefetchWastedBytes += s.bytes;
            }
            for (auto& w : s.waiters)
                completions.emplace_back(std::move(w.done), handleFor(chunk, w.frame));
            s.waiters.clear();
        }
        lock.unlock();
        m_wake.notify_all();
        for (auto& [cb, r] : completions)
            cb(r);
        completions.clear();
        if (report)
            report(c);
        lock.lock();
    }
}

FrameStream ChunkCache::earlyFrames(size_t c)
{
    // A waiter whose frame is decoded before the rest of its chunk gets it at once (a jump pays
    // for the bytes up to its frame); the others wait for the whole chunk as before.
    FrameStream stream;
    stream.wants = [this, c](int32_t frame) {
        std::lock_guard lock(m_mutex);
        const auto& waiters = m_slots[c].waiters;
        return std::any_of(waiters.begin(), waiters.end(), [frame](const Waiter& w) { return w.frame == frame; });
    };
    stream.ready = [this, c](int32_t frame, const Result<FrameHandle>& handle) {
        std::vector<Callback> done;
        {
            std::lock_guard lock(m_mutex);
            auto& waiters = m_slots[c].waiters;
            auto it = std::stable_partition(waiters.begin(), waiters.end(), [frame](const Waiter& w) { return w.frame != frame; });
            for (auto w = it; w != waiters.end(); ++w)
                done.push_back(std::move(w->done));
            waiters.erase(it, waiters.end());
            m_stats.earlyFrames += done.size();
        }
        for (auto& cb : done)
            cb(handle);
    };
    return stream;
}

CacheStats ChunkCache::stats() const
{
    std::lock_guard lock(m_mutex);
    CacheStats s = m_stats;
    s.policy = m_policy->name();
    s.state = m_policy->state();
    s.budgetBytes = m_budget;
    s.residentBytes = m_resident;
    s.residentChunks = size_t(std::count_if(m_slots.begin(), m_slots.end(), [](const Slot& x) { return bool(x.chunk); }));
    return s;
}

std::vector<ChunkState> ChunkCache::chunkStates() const
{
    std::lock_guard lock(m_mutex);
    std::vector<ChunkState> out(m_slots.size(), ChunkState::NotLoaded);
    for (size_t i = m_prefetchPos; i < m_prefetch.size(); ++i)
        out[m_prefetch[i]] = ChunkState::Queued;
    for (size_t c : m_demand)
        out[c] = ChunkState::Queued;
    for (size_t c = 0; c < m_slots.size(); ++c) {
        if (m_slots[c].chunk)
            out[c] = ChunkState::Cached;
        else if (m_slots[c].decoding)
            out[c] = ChunkState::Decoding;
        else if (m_slots[c].failed)
            out[c] = ChunkState::Failed;
        else if (out[c] == ChunkState::Queued && !m_slots[c].waiters.empty())
            out[c] = ChunkState::Queued;
    }
    return out;
}

void ChunkCache::setFailureReport(std::function<void(size_t c)> report)
{
    std::lock_guard lock(m_mutex);
    m_onChunkFailed = std::move(report);
}

void ChunkCache::setBudget(size_t bytes)
{
    {
        std::lock_guard lock(m_mutex);
        m_budget = bytes;
        (void)evictForLocked(0, SIZE_MAX, 1e300);
    }
    m_wake.notify_all();
}

bool ChunkCache::setPolicy(const std::string& spec)
{
    auto p = makeCachePolicy(spec);
    if (!p)
        return false;
    std::lock_guard lock(m_mutex);
    m_policy = std::move(p);
    m_plan = {};
    m_prefetch.clear();
    m_prefetchPos = 0;
    return true;
}

} // namespace vtx
