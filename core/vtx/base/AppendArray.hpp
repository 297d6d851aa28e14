// SPDX-License-Identifier: MIT
#pragma once
// A growable array of trivially copyable records that hands out uninitialised slots to fill in
// place. The diff appends a change and its path steps per changed value; std::vector's
// push_back of a braced record built the record on the stack and copied it, and value-
// initialised emplace_back zeroed it first, which together cost more than the comparison.

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace vtx {

template <class T> class AppendArray {
    static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= alignof(std::max_align_t));

public:
    AppendArray() = default;
    AppendArray(const AppendArray& o) { append(o.data(), o.size()); }
    AppendArray(AppendArray&& o) noexcept
        : m_data(std::exchange(o.m_data, nullptr)), m_size(std::exchange(o.m_size, 0)), m_capacity(std::exchange(o.m_capacity, 0))
    {
    }
    AppendArray& operator=(const AppendArray& o)
    {
        if (this != &o) {
            clear();
            append(o.data(), o.size());
        }
        return *this;
    }
    AppendArray& operator=(AppendArray&& o) noexcept
    {
        std::swap(m_data, o.m_data);
        std::swap(m_size, o.m_size);
        std::swap(m_capacity, o.m_capacity);
        return *this;
    }
    ~AppendArray() { std::free(m_data); }

    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    size_t capacity() const { return m_capacity; }
    T* data() { return m_data; }
    const T* data() const { return m_data; }
    T& operator[](size_t i) { return m_data[i]; }
    const T& operator[](size_t i) const { return m_data[i]; }
    T* begin() { return m_data; }
    T* end() { return m_data + m_size; }
    const T* begin() const { return m_data; }
    const T* end() const { return m_data + m_size; }
    const T& back() const { return m_data[m_size - 1]; }

    void clear() { m_size = 0; } ///< keeps the capacity
    void push_back(const T& v) { *grow(1) = v; }
    void append(const T* p, size_t n)
    {
        if (n)
            std::memcpy(static_cast<void*>(grow(n)), p, n * sizeof(T));
    }
    /// `n` uninitialised slots at the end, for the caller to fill before reading them.
    T* grow(size_t n)
    {
        if (m_capacity - m_size < n) [[unlikely]]
            reserveAtLeast(m_size + n);
        T* p = m_data + m_size;
        m_size += n;
        return p;
    }

private:
    void reserveAtLeast(size_t needed)
    {
        const size_t capacity = std::max({needed, m_capacity * 2, size_t(64)});
        void* p = std::realloc(static_cast<void*>(m_data), capacity * sizeof(T));
        if (!p)
            throw std::bad_alloc();
        m_data = static_cast<T*>(p);
        m_capacity = capacity;
    }

    T* m_data = nullptr;
    size_t m_size = 0;
    size_t m_capacity = 0;
};

} // namespace vtx
