// SPDX-License-Identifier: MIT
#include "vtx/library/ReplaySummary.hpp"

#include "vtx/file/ReplayFile.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>

namespace vtx {
namespace {

/// The first `size` bytes of another source: the header without anything after it.
class PrefixSource final : public ByteSource {
public:
    PrefixSource(std::shared_ptr<const ByteSource> source, uint64_t size) : m_source(std::move(source)), m_size(std::min(size, m_source->size())) { }
    uint64_t size() const override { return m_size; }
    const std::string& name() const override { return m_source->name(); }
    Status readAt(uint64_t offset, std::span<uint8_t> out) const override
    {
        if (offset > m_size || out.size() > m_size - offset)
            return Error{name() + ": read of " + std::to_string(out.size()) + " bytes at offset " + std::to_string(offset) + " is past the header"};
        return m_source->readAt(offset, out);
    }

private:
    std::shared_ptr<const ByteSource> m_source;
    uint64_t m_size;
};

/// Reader errors start with "path: "; a library row already shows the file.
std::string withoutPath(const std::string& message, const std::string& path)
{
    const std::string prefix = path + ": ";
    return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
}

std::string magicText(const uint8_t* p, size_t n)
{
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (size_t i = 0; i < n; ++i) {
        if (i)
            out += ' ';
        out += digits[p[i] >> 4];
        out += digits[p[i] & 15];
    }
    return out;
}

std::vector<std::string> entityTypesOf(const Schema& schema)
{
    std::set<std::string, std::less<>> nested;
    for (const StructDef& s : schema.structs())
        for (const FieldDef& f : s.fields)
            if (!f.structType.empty() && f.structType != s.name)
                nested.insert(f.structType);
    std::vector<std::string> types;
    for (const StructDef& s : schema.structs())
        if (!nested.contains(s.name))
            types.push_back(s.name);
    if (types.empty())
        for (const StructDef& s : schema.structs())
            types.push_back(s.name);
    return types;
}

void takeHeader(ReplaySummary& s, const ReplayFile& file)
{
    s.replayName = file.header().replayName;
    s.recordedUtcSeconds = file.header().recordedUtcTimestamp;
    s.entityTypes = entityTypesOf(file.schema());
}

} // namespace

const char* summaryVerdictName(SummaryVerdict v)
{
    switch (v) {
    case SummaryVerdict::Ok: return "ok";
    case SummaryVerdict::Warnings: return "warnings";
    case SummaryVerdict::NoFooter: return "no footer";
    case SummaryVerdict::Unreadable: return "unreadable";
    case SummaryVerdict::NotReplay: return "not a replay";
    }
    return "?";
}

ReplaySummary summarizeReplay(const std::string& path, const SourceOpener& open)
{
    ReplaySummary s;
    s.path = path;
    auto fail = [&s](SummaryVerdict v, std::string text) {
        s.verdict = v;
        s.findings = {text};
        s.verdictText = std::move(text);
        return s;
    };
    auto source = open ? open(path) : openFileSource(path);
    if (!source)
        return fail(SummaryVerdict::Unreadable, withoutPath(source.message(), path));
    const std::shared_ptr<const ByteSource>& src = *source;
    s.fileSize = src->size();

    uint8_t preamble[8] = {};
    const size_t got = size_t(std::min<uint64_t>(8, src->size()));
    if (Status r = src->readAt(0, std::span<uint8_t>(preamble, got)); !r)
        return fail(SummaryVerdict::Unreadable, withoutPath(r.message(), path));
    if (got >= 4 && std::memcmp(preamble, "VTXF", 4) == 0)
        s.backend = Backend::FlatBuffers;
    else if (got >= 4 && std::memcmp(preamble, "VTXP", 4) == 0)
        s.backend = Backend::Protobuf;
    else if (got == 0)
        return fail(SummaryVerdict::NotReplay, "not a VTX replay: the file is empty");
    else
        return fail(SummaryVerdict::NotReplay,
                    "not a VTX replay: it starts with " + magicText(preamble, std::min<size_t>(got, 4)) + ", not the magic \"VTXF\" or \"VTXP\"");

    // Without recovery the reader reads the preamble, the header and the footer (plus each seek
    // entry's 4-byte size prefix) and nothing else: a file without a usable footer fails here
    // instead of having its chunks walked and decoded.
    ReaderOptions options;
    options.recover = false;
    options.sampleHashes = false;
    auto file = ReplayFile::open(src, options);
    if (file) {
        const ReplayFile& f = **file;
        takeHeader(s, f);
        s.frames = f.frameCount();
        s.durationSeconds = double(f.footer().durationSeconds);
        s.chunks = f.chunks().size();
        // Notes (Severity::Info: a schema field type with no name-addressable values) leave
        // the verdict OK; 44 sound replays read "2 warnings; first: schema: …" for them.
        std::vector<std::string> warnings;
        for (const Problem& p : f.problems()) {
            s.findings.push_back(withoutPath(p.message, path));
            if (p.severity != Problem::Severity::Info)
                warnings.push_back(s.findings.back());
        }
        const size_t notes = s.findings.size() - warnings.size();
        if (warnings.empty()) {
            s.verdict = SummaryVerdict::Ok;
            s.verdictText = notes == 0 ? "OK" : "OK (" + std::to_string(notes) + (notes == 1 ? " note)" : " notes)");
        } else {
            s.verdict = SummaryVerdict::Warnings;
            s.verdictText = warnings.size() == 1 ? warnings.front() : std::to_string(warnings.size()) + " warnings: " + warnings.front();
        }
        return s;
    }
    const std::string error = withoutPath(file.message(), path);

    // Which part failed: the header alone, opened with recovery, holds no chunk record to walk,
    // so it reads without decoding anything. If it opens, the header is sound and the footer is
    // what failed.
    uint64_t headerEnd = 8;
    if (got == 8)
        headerEnd += uint64_t(preamble[4]) | uint64_t(preamble[5]) << 8 | uint64_t(preamble[6]) << 16 | uint64_t(preamble[7]) << 24;
    ReaderOptions headerOnly;
    headerOnly.sampleHashes = false;
    auto header = ReplayFile::open(std::make_shared<PrefixSource>(src, headerEnd), headerOnly);
    if (!header)
        return fail(SummaryVerdict::Unreadable, error);
    takeHeader(s, **header);
    return fail(SummaryVerdict::NoFooter, "no usable footer, frames unknown until opened (the viewer then recovers the chunks): " + error);
}

bool hasReplayExtension(std::string_view name)
{
    if (name.size() < 4)
        return false;
    const std::string_view ext = name.substr(name.size() - 4);
    return ext[0] == '.' && (ext[1] | 0x20) == 'v' && (ext[2] | 0x20) == 't' && (ext[3] | 0x20) == 'x';
}

ReplayListing listReplayFiles(const std::string& folder, const std::atomic<bool>* cancel)
{
    namespace fs = std::filesystem;
    ReplayListing listing;
    std::vector<fs::path> pending{fs::path(folder)};
    while (!pending.empty()) {
        const fs::path dir = std::move(pending.back());
        pending.pop_back();
        std::error_code ec;
        fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
        if (ec) {
            listing.errors.push_back(dir.string() + ": " + ec.message());
            continue;
        }
        for (const fs::directory_iterator end; it != end; it.increment(ec)) {
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                listing.cancelled = true;
                return listing;
            }
            const fs::directory_entry& entry = *it;
            std::error_code kind;
            if (entry.is_directory(kind) && !entry.is_symlink(kind))
                pending.push_back(entry.path());
            else if (hasReplayExtension(entry.path().filename().string()) && entry.is_regular_file(kind))
                listing.paths.push_back(entry.path().string());
        }
        if (ec)
            listing.errors.push_back(dir.string() + ": " + ec.message());
    }
    std::sort(listing.paths.begin(), listing.paths.end());
    return listing;
}

} // namespace vtx
