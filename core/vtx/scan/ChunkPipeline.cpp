// SPDX-License-Identifier: MIT
#include "vtx/scan/ChunkPipeline.hpp"

#include <algorithm>

namespace vtx {

ChunkPipeline::ChunkPipeline(const ReplayFile& file, std::vector<size_t> order, const ChunkPipelineOptions& options)
    : m_file(file), m_order(std::move(order)), m_options(options), m_slots(m_order.size())
{
    if (m_options.threads < 2 || m_order.empty())
        return;
    const size_t workers =
        std::min<size_t>(m_options.workers > 0 ? std::min(m_options.workers, m_options.threads) : m_options.threads, m_order.size());
    m_workers.reserve(workers);
    for (size_t i = 0; i < workers; ++i)
        m_workers.emplace_back([this] { work(); });
}

ChunkPipeline::~ChunkPipeline()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_workAvailable.notify_all();
    for (std::thread& t : m_workers)
        t.join();
}

std::vector<size_t> ChunkPipeline::chunkRange(const ReplayFile& file, size_t from, size_t to)
{
    std::vector<size_t> out;
    const size_t n = file.chunks().size();
    for (size_t i = from; i <= to && i < n; ++i)
        out.push_back(i);
    return out;
}

size_t ChunkPipeline::peakAhead() const
{
    std::lock_guard lock(m_mutex);
    return m_peakAhead;
}

ChunkPipeline::Decoded ChunkPipeline::decode(size_t chunkIndex, bool verify) const
{
    Decoded d = m_file.decodeChunk(chunkIndex);
    // Frames are verified on their first read; here, on the worker, not one after the other on
    // the walking thread. The answers are kept in the chunk (atomics), which reaches the caller
    // under m_mutex.
    if (verify && d)
        for (size_t f = 0; f < (*d)->frameCount(); ++f)
            (void)(*d)->frame(f);
    return d;
}

bool ChunkPipeline::canStart() const
{
    if (m_nextToStart >= m_order.size() || m_nextToStart >= m_taken + m_options.threads)
        return false;
    // A decode dropped by a jump still holds its chunk until it finishes; counting it keeps the
    // bound true (at most `threads` chunks decoding or decoded ahead), where the window alone
    // let the other workers fill it beside a dropped decode (CI saw 4 of 3 under TSan).
    if (m_ahead >= m_options.threads)
        return false;
    return !(m_options.cancel && m_options.cancel->load(std::memory_order_relaxed));
}

void ChunkPipeline::work()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_workAvailable.wait(lock, [this] { return m_stop || canStart(); });
        if (m_stop)
            return;
        const size_t p = m_nextToStart++;
        m_slots[p].state = SlotState::Decoding;
        m_peakAhead = std::max(m_peakAhead, ++m_ahead);
        lock.unlock();
        Decoded d = decode(m_order[p], m_options.verifyFrames);
        lock.lock();
        Slot& slot = m_slots[p];
        if (p < m_taken) { // dropped while it decoded: nobody will take it
            slot.state = SlotState::Gone;
            --m_ahead;
            lock.unlock();
            {
                Decoded discard = std::move(d);
            } // freed outside the lock
            lock.lock();
            m_workAvailable.notify_all(); // its place in the window is free
            continue;
        }
        slot.result.emplace(std::move(d));
        slot.state = SlotState::Ready;
        m_chunkReady.notify_all();
    }
}

Result<std::shared_ptr<const DecodedChunk>> ChunkPipeline::take(size_t chunkIndex)
{
    if (m_workers.empty())
        return m_file.decodeChunk(chunkIndex);
    std::unique_lock lock(m_mutex);
    size_t p = m_taken;
    while (p < m_order.size() && m_order[p] != chunkIndex)
        ++p;
    if (p == m_order.size()) { // not ahead: the pipeline stays where it is
        lock.unlock();
        return m_file.decodeChunk(chunkIndex);
    }
    // The chunks of the order before it are not wanted any more.
    std::vector<Decoded> dropped;
    for (size_t q = m_taken; q < p; ++q) {
        Slot& s = m_slots[q];
        if (s.state == SlotState::Ready) {
            dropped.push_back(std::move(*s.result));
            s.result.reset();
            s.state = SlotState::Gone;
            --m_ahead;
        } else if (s.state == SlotState::Waiting) {
            s.state = SlotState::Gone;
        } // Decoding: the worker sees q < m_taken and lets it go
    }
    m_taken = p;
    m_nextToStart = std::max(m_nextToStart, p);
    Slot& slot = m_slots[p];
    if (slot.state == SlotState::Waiting) {
        // Not started (a jump ahead, or the workers stopped on cancel): decoded here, so a take
        // never waits for work nobody will do.
        slot.state = SlotState::Gone;
        m_taken = p + 1;
        m_nextToStart = std::max(m_nextToStart, p + 1);
        lock.unlock();
        m_workAvailable.notify_all();
        dropped.clear();
        return m_file.decodeChunk(chunkIndex);
    }
    m_workAvailable.notify_all();
    m_chunkReady.wait(lock, [&] { return slot.state == SlotState::Ready; });
    Decoded out = std::move(*slot.result);
    slot.result.reset();
    slot.state = SlotState::Gone;
    --m_ahead;
    m_taken = p + 1;
    lock.unlock();
    m_workAvailable.notify_all();
    return out;
}

} // namespace vtx
