// SPDX-License-Identifier: MIT
#include "vtx/file/ByteSource.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace vtx {
namespace {

class FileSource final : public ByteSource {
public:
    FileSource(int fd, uint64_t size, std::string path) : m_fd(fd), m_size(size), m_path(std::move(path)) { }
    ~FileSource() override { ::close(m_fd); }
    FileSource(const FileSource&) = delete;
    FileSource& operator=(const FileSource&) = delete;

    uint64_t size() const override { return m_size; }
    const std::string& name() const override { return m_path; }

    Status readAt(uint64_t offset, std::span<uint8_t> out) const override
    {
        if (offset > m_size || out.size() > m_size - offset)
            return Error{m_path + ": read of " + std::to_string(out.size()) + " bytes at offset " + std::to_string(offset) +
                         " is past the end of the file (" + std::to_string(m_size) + " bytes)"};
        size_t done = 0;
        while (done < out.size()) {
            ssize_t n = ::pread(m_fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return Error{m_path + ": read error at offset " + std::to_string(offset + done) + ": " + std::strerror(errno)};
            }
            if (n == 0)
                return Error{m_path + ": short read at offset " + std::to_string(offset + done) + " (the file shrank while open?)"};
            done += static_cast<size_t>(n);
        }
        return {};
    }

private:
    int m_fd;
    uint64_t m_size;
    std::string m_path;
};

class MemorySource final : public ByteSource {
public:
    MemorySource(std::vector<uint8_t> bytes, std::string name) : m_bytes(std::move(bytes)), m_name(std::move(name)) { }
    uint64_t size() const override { return m_bytes.size(); }
    const std::string& name() const override { return m_name; }
    Status readAt(uint64_t offset, std::span<uint8_t> out) const override
    {
        if (offset > m_bytes.size() || out.size() > m_bytes.size() - offset)
            return Error{m_name + ": read of " + std::to_string(out.size()) + " bytes at offset " + std::to_string(offset) + " is past the end (" +
                         std::to_string(m_bytes.size()) + " bytes)"};
        if (!out.empty())
            std::memcpy(out.data(), m_bytes.data() + offset, out.size());
        return {};
    }

private:
    std::vector<uint8_t> m_bytes;
    std::string m_name;
};

} // namespace

Result<std::shared_ptr<const ByteSource>> openFileSource(const std::string& path)
{
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return Error{"Failed to open file: " + path + ": " + std::strerror(errno)};
    struct stat st { };
    if (::fstat(fd, &st) != 0) {
        int err = errno;
        ::close(fd);
        return Error{"Failed to stat file: " + path + ": " + std::strerror(err)};
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return Error{"Not a regular file: " + path};
    }
    return std::shared_ptr<const ByteSource>(std::make_shared<FileSource>(fd, static_cast<uint64_t>(st.st_size), path));
}

std::shared_ptr<const ByteSource> memorySource(std::vector<uint8_t> bytes, std::string name)
{
    return std::make_shared<MemorySource>(std::move(bytes), std::move(name));
}

} // namespace vtx
